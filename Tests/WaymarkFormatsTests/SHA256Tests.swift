import Testing
import WaymarkFormats

@Suite struct SHA256Tests {
    /// FIPS 180-4's examples (NIST, "SHA256.pdf" and "SHA2_Additional.pdf" of the Cryptographic Standards and
    /// Guidelines' examples), and lengths around the padding's edges (55, 56, 63, 64, 65 bytes), their digests
    /// computed with Python's hashlib (OpenSSL).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                + "nopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func digestsAreFIPS180(text: String, digest: String) {
        #expect(SHA256.hexDigest(Array(text.utf8)) == digest)
    }

    @Test func aMillionTimesAIsNISTsLongMessage() {
        var hash = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hash.append(chunk) }
        #expect(SHA256.hex(hash.finish()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func appendingInPiecesIsAppendingAtOnce() {
        let text = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        for split in [0, 1, 55, 56, text.count] {
            var hash = SHA256()
            hash.append(text[..<split])
            hash.append(text[split...])
            #expect(hash.finish() == SHA256.digest(text), "split at \(split)")
        }
    }
}

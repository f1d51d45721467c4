import Foundation
import Testing
import WaymarkFormats
import WaymarkTestSupport

/// The DEFLATE decoder held to Python's zlib (the C library) as the compressor: stored, fixed and dynamic
/// blocks, every strategy and level, and damaged streams that are refused or, where the damage falls on bits
/// the format ignores, decode to the same bytes; never a crash, never other bytes.
@Suite struct InflateTests {
    /// The inputs, and each compressed by zlib in several ways, from a script run by the python3 on PATH.
    static func vectors() throws -> [(name: String, original: [UInt8], compressed: [UInt8])] {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            import random, sys, zlib
            rng = random.Random(7)
            words = [bytes(rng.choice(b"abcdefghij klmnop") for _ in range(rng.randrange(1, 9))) for _ in range(300)]
            inputs = {
                "empty": b"",
                "one": b"x",
                "run": b"a" * 100_000,
                "random": bytes(rng.randrange(256) for _ in range(70_000)),
                "text": b" ".join(rng.choice(words) for _ in range(40_000)),
            }
            strategies = {"default": zlib.Z_DEFAULT_STRATEGY, "fixed": zlib.Z_FIXED, "huffman": zlib.Z_HUFFMAN_ONLY,
                          "rle": zlib.Z_RLE, "filtered": zlib.Z_FILTERED}
            for name, data in inputs.items():
                open(sys.argv[1] + "/" + name + ".raw", "wb").write(data)
                for level in (0, 1, 6, 9):
                    for strategy, value in strategies.items():
                        z = zlib.compressobj(level, zlib.DEFLATED, 15, 9, value)
                        open("%s/%s.%d.%s.z" % (sys.argv[1], name, level, strategy), "wb").write(z.compress(data) + z.flush())
            """
        let scriptPath = directory.appendingPathComponent("make.py").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let result = try WaymarkBinary.run(["python3", scriptPath, directory.path], executable: "/usr/bin/env")
        guard result.status == 0 else { throw TestServerError("python3 zlib vectors: \(result.stderr)") }
        var vectors: [(String, [UInt8], [UInt8])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where file.hasSuffix(".z") {
            let input = String(file.split(separator: ".")[0])
            let original = try Data(contentsOf: directory.appendingPathComponent("\(input).raw"))
            let compressed = try Data(contentsOf: directory.appendingPathComponent(file))
            vectors.append((file, Array(original), Array(compressed)))
        }
        return vectors
    }

    @Test func inflatesWhatZlibCompresses() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 100)
        for (name, original, compressed) in vectors {
            let inflated = try Inflate.zlib(compressed[...], expectedSize: original.count)
            #expect(inflated == original, "\(name)")
        }
    }

    @Test func refusesAWrongSizeAndDamage() throws {
        for (name, original, compressed) in try Self.vectors()
        where ["text.6.default.z", "random.0.default.z"].contains(name) {
            #expect(throws: InflateError.self) {
                _ = try Inflate.zlib(compressed[...], expectedSize: original.count + 1)
            }
            #expect(throws: InflateError.self) {
                _ = try Inflate.zlib(compressed.dropLast(5), expectedSize: original.count)
            }
            var random = SplitMix64(seed: 99)
            for _ in 0..<200 {
                var damaged = compressed
                damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8(
                    1 << Int.random(in: 0..<8, using: &random)
                )
                if let inflated = try? Inflate.zlib(damaged[...], expectedSize: original.count) {
                    #expect(inflated == original, "\(name): damage that decodes must be in bits DEFLATE ignores")
                }
            }
        }
    }
}

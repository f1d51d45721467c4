/// Cheap checks on one line of gpsd's JSON protocol, before libgps sees it.
///
/// libgps's `gps_unpack` returns success for truncated or garbled input and fills whatever it
/// parsed, so a line is handed to it only when it is one or more complete, balanced JSON objects.
enum JSONLine {
    private static let classKey = Array(#""class":""#.utf8)
    private static let deactivation = Array(#""activated":0"#.utf8)

    /// True when `line` is a sequence of complete JSON objects: members of a quoted name, a colon and a value
    /// each, separated by commas; elements separated by commas; terminated strings without control bytes; nothing
    /// but whitespace after the last `}`. A value that is no string, object or array is taken as libgps takes it,
    /// as a bare word up to the next delimiter (`05.5` and `+5` included).
    ///
    /// Structure is checked, not only balance: libgps 3.22's `gps_unpack` never returns for some objects of
    /// balanced braces, such as `{("class":"TPV","mode":1}` or `{"epy":"class":"TPV"}` (found by
    /// `scripts/fuzz.sh gpsd-libgps`). A replay runs it on every line before libgps does. On a live connection
    /// `gps_read` has unpacked the line already (the text is gpsd's own output), and the check only refuses what
    /// libgps read. The bytes of each string, keys included, are passed over in a loop of their own that looks
    /// only for its end, an escape and a control byte; the open containers are bits of one word, so a line costs
    /// no allocation (gpsd nests three deep; a line nested deeper than 64 is refused).
    static func isComplete(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let bytes = line.baseAddress else { return false }
        let count = line.count
        /// The open containers, one bit each, innermost lowest: 1 an object, 0 an array.
        var containers: UInt64 = 0
        var depth = 0
        var expected = Expected.object
        var sawObject = false
        var index = 0
        /// Passes over the string whose opening quote was just read; false when it does not end on the line.
        func skipString() -> Bool {
            while index < count {
                let inner = bytes[index]
                index += 1
                if inner == UInt8(ascii: "\"") { return true }
                if inner == UInt8(ascii: "\\") {
                    index += 1  // the escaped byte, whatever it is
                } else if inner < 0x20 {
                    return false
                }
            }
            return false
        }
        func open(object: Bool) -> Bool {
            guard depth < UInt64.bitWidth else { return false }
            containers = containers << 1 | (object ? 1 : 0)
            depth += 1
            expected = object ? .nameOrClose : .valueOrClose
            return true
        }
        func close() {
            containers >>= 1
            depth -= 1
            expected = depth == 0 ? .object : .commaOrClose
        }
        while index < count {
            let byte = bytes[index]
            index += 1
            if isWhitespace(byte) { continue }
            switch expected {
            case .object:
                guard byte == UInt8(ascii: "{"), open(object: true) else { return false }
                sawObject = true
            case .nameOrClose where byte == UInt8(ascii: "}"):
                close()
            case .nameOrClose, .name:
                guard byte == UInt8(ascii: "\""), skipString() else { return false }
                expected = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else { return false }
                expected = .value
            case .valueOrClose where byte == UInt8(ascii: "]"):
                close()
            case .valueOrClose, .value:
                switch byte {
                case UInt8(ascii: "{"):
                    guard open(object: true) else { return false }
                case UInt8(ascii: "["):
                    guard open(object: false) else { return false }
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    expected = .commaOrClose
                case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    return false
                default:
                    while index < count, !isDelimiter(bytes[index]) { index += 1 }
                    expected = .commaOrClose
                }
            case .commaOrClose:
                let inObject = containers & 1 == 1
                if byte == UInt8(ascii: ",") {
                    expected = inObject ? .name : .value
                } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    close()
                } else {
                    return false
                }
            }
        }
        return sawObject && expected == .object
    }

    /// True when `line` starts with `{` (whitespace aside), its strings are closed and its braces and brackets
    /// balance outside them: what a live connection checks of the line `gps_read` has just unpacked.
    ///
    /// The text is gpsd's own output and libgps has parsed it already, so ``isComplete(_:)``'s check of the
    /// structure protects nothing there; this catches a line cut short (a message longer than libgps's buffer)
    /// for 7.8 instructions a byte of gpsd's messages against 13.1 (callgrind, Regensburg's capture). It reads
    /// eight bytes at a time and stops only at those that matter: in a
    /// string its closing quote and a backslash, outside one a quote, a brace or a bracket. A replay, whose
    /// lines libgps has not seen, checks them with ``isComplete(_:)``.
    static func isBalanced(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let bytes = line.baseAddress else { return false }
        let count = line.count
        var index = 0
        while index < count, isWhitespace(bytes[index]) { index &+= 1 }
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return false }
        // `index` stays below `count` + 2 and `depth` within ±`count`: wrapping arithmetic cannot wrap.
        var depth = 0
        var inString = false
        while index < count {
            if count &- index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                let found =
                    inString
                    ? bytesEqual(word, UInt8(ascii: "\"")) | bytesEqual(word, UInt8(ascii: "\\"))
                    // With 0x20 set, "[" reads as "{" and "]" as "}"; no other byte does.
                    : bytesEqual(word, UInt8(ascii: "\"")) | bytesEqual(word | 0x2020_2020_2020_2020, UInt8(ascii: "{"))
                        | bytesEqual(word | 0x2020_2020_2020_2020, UInt8(ascii: "}"))
                guard found != 0 else {
                    index &+= 8
                    continue
                }
                index &+= found.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            index &+= 1
            if inString {
                if byte == UInt8(ascii: "\"") {
                    inString = false
                } else if byte == UInt8(ascii: "\\") {
                    index &+= 1  // the escaped byte, whatever it is
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte | 0x20 == UInt8(ascii: "{") {
                depth &+= 1
            } else if byte | 0x20 == UInt8(ascii: "}") {
                depth &-= 1
                guard depth >= 0 else { return false }
            }
        }
        return !inString && depth == 0
    }

    /// A word whose lowest set bit is the high bit of the first byte of `word` (in memory order) equal to
    /// `byte`; zero when there is none. Bits above the first match may be set wrongly (a borrow), so only the
    /// lowest is meaningful.
    @inline(__always)
    private static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080
    }

    /// What may come next in ``isComplete(_:)``, whitespace aside.
    private enum Expected {
        /// A top-level object, or the end of the line.
        case object
        /// A member's name, or the `}` of an empty object.
        case nameOrClose
        /// A member's name, after a comma.
        case name
        case colon
        /// An element, or the `]` of an empty array.
        case valueOrClose
        case value
        case commaOrClose
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        // Every whitespace byte is below "!": one comparison for the bytes that are none.
        byte <= UInt8(ascii: " ")
            && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n"))
    }

    /// A byte that ends a bare word (a number, `true`, `null`).
    @inline(__always)
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        // Digits and letters make up most of a word: the five delimiters from "0" on are told apart first.
        if byte >= UInt8(ascii: "0") {
            return byte == UInt8(ascii: ":") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        }
        return isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"")
    }

    /// The value of the first `"class":"…"` member, which gpsd always writes first.
    static func messageClass(_ line: UnsafeBufferPointer<UInt8>) -> Substring? {
        let key = classKey
        guard line.count > key.count else { return nil }
        var start = 0
        while start + key.count <= line.count {
            if line[start] == key[0] && line[start..<start + key.count].elementsEqual(key) {
                let valueStart = start + key.count
                var end = valueStart
                while end < line.count, line[end] != UInt8(ascii: "\"") { end += 1 }
                guard end < line.count else { return nil }
                return Substring(decoding: UnsafeBufferPointer(rebasing: line[valueStart..<end]), as: UTF8.self)
            }
            start += 1
        }
        return nil
    }

    /// True when the raw line contains `"activated":0`: a `DEVICE` report of a closed receiver.
    static func reportsDeactivation(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = deactivation
        guard line.count >= needle.count else { return false }
        for start in 0...(line.count - needle.count)
        where line[start] == needle[0] && line[start..<start + needle.count].elementsEqual(needle) {
            let after = start + needle.count
            // `"activated":0` exactly, not `"activated":0.5` or a longer number.
            return after == line.count || line[after] == UInt8(ascii: ",") || line[after] == UInt8(ascii: "}")
        }
        return false
    }
}

/// Cheap checks on one line of gpsd's JSON protocol, before libgps sees it.
///
/// libgps's `gps_unpack` returns success for truncated or garbled input and fills whatever it
/// parsed, so a line is handed to it only when it is one or more complete, balanced JSON objects.
enum JSONLine {
    private static let classKey = Array(#""class":""#.utf8)
    private static let deactivation = Array(#""activated":0"#.utf8)

    /// True when `line` is a sequence of complete JSON objects: balanced braces and brackets outside
    /// strings, terminated strings, nothing but whitespace after the last `}`.
    ///
    /// It runs on every message before libgps does: the bytes of each string, keys included, are passed over in
    /// a loop of their own that looks only for its end, an escape and a control byte.
    static func isComplete(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let bytes = line.baseAddress else { return false }
        let count = line.count
        var depth = 0
        var sawObject = false
        var index = 0
        while index < count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard depth > 0 else { return false }
                while true {
                    guard index < count else { return false }
                    let inner = bytes[index]
                    index += 1
                    if inner == UInt8(ascii: "\"") { break }
                    if inner == UInt8(ascii: "\\") {
                        index += 1  // the escaped byte, whatever it is
                    } else if inner < 0x20 {
                        return false
                    }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 && byte != UInt8(ascii: "{") { return false }
                depth += 1
                sawObject = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { return false }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                break
            default:
                guard depth > 0 else { return false }
            }
        }
        return sawObject && depth == 0
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

/// Turns what a private gpsd sends while it reads a raw receiver log into a capture: the lines gpsd's own
/// regression captures (`.chk`) hold, byte for byte.
///
/// Pure. gpsd's answers to the watch (`VERSION`, `DEVICES`, `WATCH`) and its `DEVICE` notices about the
/// loopback feed it reads are the session's, not the receiver's: dropped. The `"device"` member naming that
/// feed is taken out of every report, as the `.chk` files have it. The `DEVICE` notice with `"activated":0`
/// is the end of the log (gpsd sends it at the `# EOF` the feed ends with).
struct GPSDOutputFilter {
    /// What became of one line.
    enum Verdict: Equatable {
        /// Kept in the capture.
        case kept
        /// Not the receiver's: left out.
        case dropped
        /// gpsd reported the end of the log; nothing after it belongs to the capture.
        case end
    }

    /// The capture so far: every kept line, each with the newline gpsd ended it with.
    private(set) var capture: [UInt8] = []
    /// The JSON reports kept (NMEA sentences gpsd echoed are kept too, and not counted).
    private(set) var reports = 0
    /// gpsd's release from its `VERSION` line (`3.22`), once seen.
    private(set) var release: String?
    private let deviceMember: [UInt8]

    /// A filter for the output of a gpsd that reads the receiver at `devicePath` (`tcp://127.0.0.1:40000`).
    init(devicePath: String) {
        deviceMember = Array(#","device":"\#(devicePath)""#.utf8)
    }

    /// Takes one line as gpsd sent it, without its `\n` (a `\r` before it stays, as in a `.chk` file).
    mutating func take(_ line: ArraySlice<UInt8>) -> Verdict {
        guard line.first == UInt8(ascii: "{") else {
            capture.append(contentsOf: line)
            capture.append(UInt8(ascii: "\n"))
            return .kept
        }
        switch Self.stringMember("class", of: line) {
        case "VERSION":
            release = Self.stringMember("release", of: line)
            return .dropped
        case "DEVICES", "WATCH":
            return .dropped
        case "DEVICE":
            return Self.contains(Array(#""activated":0"#.utf8), in: line) ? .end : .dropped
        default:
            append(line)
            reports += 1
            return .kept
        }
    }

    /// Appends `line` without the members naming the feed.
    private mutating func append(_ line: ArraySlice<UInt8>) {
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == deviceMember[0], line[index...].starts(with: deviceMember) {
                index += deviceMember.count
                continue
            }
            capture.append(line[index])
            index += 1
        }
        capture.append(UInt8(ascii: "\n"))
    }

    /// The value of the first string member `key` in `line` (gpsd writes `class` first), when it has no escapes.
    private static func stringMember(_ key: String, of line: ArraySlice<UInt8>) -> String? {
        let pattern = Array(#""\#(key)":""#.utf8)
        var index = line.startIndex
        while index + pattern.count <= line.endIndex {
            if line[index...].starts(with: pattern) {
                let start = index + pattern.count
                guard let end = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: line[start..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }

    private static func contains(_ pattern: [UInt8], in line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while index + pattern.count <= line.endIndex {
            if line[index...].starts(with: pattern) { return true }
            index += 1
        }
        return false
    }
}

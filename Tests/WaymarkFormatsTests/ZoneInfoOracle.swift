import Foundation
import WaymarkFormats

/// Python's `zoneinfo` (Python 3.9 on; Debian 12 has 3.11), an independent reader of the same zone files: the
/// offset and abbreviation it gives at each instant.
enum ZoneInfoOracle {
    static let script = """
        import sys, datetime, zoneinfo
        zones = {}
        out = []
        for line in sys.stdin:
            name, seconds = line.split()
            zone = zones.get(name) or zones.setdefault(name, zoneinfo.ZoneInfo(name))
            local = datetime.datetime.fromtimestamp(int(seconds), zone)
            out.append("%d %s" % (int(local.utcoffset().total_seconds()), local.tzname()))
        sys.stdout.write("\\n".join(out) + "\\n")
        """

    /// The oracle's answer for each `(zone, seconds)`, in order.
    static func localTimes(_ queries: [(zone: String, seconds: Int64)]) throws -> [(offset: Int, abbreviation: String)]
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let text = queries.map { "\($0.zone) \($0.seconds)\n" }.joined()
        // Write from another thread: the oracle's output would fill its pipe before it has read all of ours.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OracleError("python3 zoneinfo exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (Int(parts[0]) ?? .min, parts.count > 1 ? String(parts[1]) : "")
        }
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

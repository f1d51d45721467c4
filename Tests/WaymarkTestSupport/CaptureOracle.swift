import Foundation

/// What a gpsd JSON capture (`.chk`) says the locations are, computed independently of Waymark's
/// decoder with `JSONSerialization`: the TPVs grouped into epochs (consecutive TPVs with the same `time`),
/// keeping epochs with a fix (mode ≥ 2 and a position), each represented by its most complete TPV
/// (highest mode, then most of the fields Waymark reports, the later one on a tie).
public struct CaptureOracle {
    public struct Epoch: Equatable, CustomStringConvertible {
        public var time: String
        public var latitude: Double
        public var longitude: Double
        public var mode: Int
        /// gpsd's `eph`, when the epoch's report has it.
        public var horizontalAccuracy: Double?
        /// The speed and course the receiver measured (`track` present), when it did.
        public var speed: Double?
        public var course: Double?

        public var description: String { "\(time) \(latitude),\(longitude) mode \(mode)" }
    }

    public var epochs: [Epoch] = []
    /// Every TPV in the capture.
    public var tpvCount = 0

    public init(chkPath: String) throws {
        let text = try String(contentsOfFile: chkPath, encoding: .isoLatin1)
        var group: [[String: Any]] = []
        var groupTime: String?
        func close() {
            defer { group = [] }
            guard let time = groupTime else { return }
            let fixes = group.filter { ($0["mode"] as? Int ?? 0) >= 2 && $0["lat"] != nil && $0["lon"] != nil }
            guard !fixes.isEmpty else { return }
            var best = fixes[0]
            for candidate in fixes.dropFirst() where Self.rank(candidate) >= Self.rank(best) { best = candidate }
            epochs.append(
                Epoch(
                    time: time,
                    latitude: best["lat"] as? Double ?? .nan,
                    longitude: best["lon"] as? Double ?? .nan,
                    mode: best["mode"] as? Int ?? 0,
                    horizontalAccuracy: best["eph"] as? Double,
                    speed: best["track"] != nil ? best["speed"] as? Double : nil,
                    course: best["track"] as? Double
                )
            )
        }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                continue
            }
            tpvCount += 1
            guard let time = object["time"] as? String else { continue }
            if time != groupTime {
                close()
                groupTime = time
            }
            group.append(object)
        }
        close()
    }

    private static func rank(_ tpv: [String: Any]) -> (Int, Int) {
        var fields = ["lat", "lon", "altHAE", "altMSL", "eph", "epx", "epy", "epv"]
        if tpv["track"] != nil { fields += ["track", "epd", "speed", "eps"] }
        return (tpv["mode"] as? Int ?? 0, fields.filter { tpv[$0] != nil }.count)
    }
}

import Foundation

/// A gpsd JSON capture (`*.log.chk`, one object per line as `gpspipe -w` writes), repeated or cut by time, for
/// `waymark replay`.
///
/// A line's time is its `"time":"2029-11-25T16:57:44.000Z"` value; lines without one (NMEA echoes, TPVs
/// without a fix, ATT) belong to the last timed line before them, and lines before the first timed one to the
/// first.
public struct ChkLog: Sendable {
    /// The capture's lines, without terminators.
    public let lines: [String]
    /// Seconds since 1970 of each line's time, inherited by lines without a time (nil before any time at all).
    private let times: [Double?]

    /// Reads a capture file.
    public init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: data, as: UTF8.self)
        self.init(lines: text.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// A capture from its lines.
    public init(lines: [String]) {
        self.lines = lines
        var last: Double?
        times = lines.map { line in
            if let time = ChkTime.first(in: line) { last = time.seconds }
            return last
        }
    }

    /// Seconds since 1970 of the first time in the capture.
    public var firstTime: Double? { times.lazy.compactMap { $0 }.first }

    /// Seconds between the earliest and the latest time.
    public var span: Double {
        let known = times.compactMap { $0 }
        return (known.max() ?? 0) - (known.min() ?? 0)
    }

    /// The median of the positive gaps between consecutive distinct times, or 1 s when there is none.
    public var typicalInterval: Double {
        var distinct: [Double] = []
        for case let time? in times where distinct.last != time { distinct.append(time) }
        let gaps = zip(distinct, distinct.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return 1 }
        let middle = gaps.count / 2
        return gaps.count % 2 == 1 ? gaps[middle] : (gaps[middle - 1] + gaps[middle]) / 2
    }

    /// Every line with every time moved by `seconds`: JSON `"time"` values, and the time fields of NMEA echoes
    /// (see ``NMEASentence/shifting(_:by:)``). Lines without a time are unchanged.
    public func shifted(by seconds: Double) -> [String] {
        lines.map { Self.shifting($0, by: seconds) }
    }

    /// The capture repeated until it covers at least `duration` seconds: repetition `k` is shifted by `k` times
    /// (``span`` + ``typicalInterval``), so times keep increasing.
    public func looped(toCover duration: Double) -> ChkLog {
        guard firstTime != nil else { return self }
        let period = span + typicalInterval
        let repetitions = max(1, Int((duration / period).rounded(.up)))
        return ChkLog(lines: (0..<repetitions).flatMap { shifted(by: Double($0) * period) })
    }

    /// The lines whose time is in `start..<end` seconds after the first time.
    public func lines(from start: Double, to end: Double) -> ChkLog {
        guard let first = firstTime else { return ChkLog(lines: []) }
        let selected = zip(lines, times).filter { _, time in
            let offset = (time ?? first) - first
            return offset >= start && offset < end
        }
        return ChkLog(lines: selected.map(\.0))
    }

    /// The capture at `path` repeated to cover `duration` seconds (see ``looped(toCover:)``).
    public static func looped(_ path: String, toCover duration: Double) throws -> [String] {
        try ChkLog(path: path).looped(toCover: duration).lines
    }

    /// The lines of the capture at `path` whose time is in `start..<end` seconds after its first time.
    public static func slice(_ path: String, from start: Double, to end: Double) throws -> [String] {
        try ChkLog(path: path).lines(from: start, to: end).lines
    }

    /// Writes `lines` to `path`, each followed by a newline.
    public static func write(_ lines: [String], to path: String) throws {
        try (lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func shifting(_ line: String, by seconds: Double) -> String {
        if line.hasPrefix("$") { return NMEASentence.shifting(line, by: seconds) }
        var result = ""
        var rest = Substring(line)
        while let range = rest.range(of: ChkTime.key) {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            guard let time = ChkTime(prefixOf: rest) else { continue }
            result += time.shifted(by: seconds).text
            rest = rest.dropFirst(time.length)
        }
        return result + rest
    }
}

/// An ISO 8601 UTC time as gpsd writes it, `2029-11-25T16:57:44.000Z`, in units of its last fractional digit.
struct ChkTime {
    static let key = "\"time\":\""

    let date: CivilDate
    let time: NMEATime
    /// The number of characters it took in the line.
    let length: Int

    /// The first `"time"` value in `line`.
    static func first(in line: String) -> ChkTime? {
        guard let range = line.range(of: key) else { return nil }
        return ChkTime(prefixOf: line[range.upperBound...])
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f...]Z` at the start of `text`.
    init?(prefixOf text: Substring) {
        guard let end = text.firstIndex(of: "Z") else { return nil }
        let value = text[..<end]
        let pieces = value.split(separator: "T", omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return nil }
        let dateFields = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
        guard dateFields.count == 3, dateFields[0].count == 4, let year = Int(dateFields[0]),
            let month = Int(dateFields[1]), let day = Int(dateFields[2]),
            let date = CivilDate(year: year, month: month, day: day),
            let time = NMEATime(pieces[1].replacingOccurrences(of: ":", with: "")),
            pieces[1].count == time.text.count + 2
        else { return nil }
        self.init(date: date, time: time, length: value.count + 1)
    }

    private init(date: CivilDate, time: NMEATime, length: Int) {
        self.date = date
        self.time = time
        self.length = length
    }

    var seconds: Double { Double(date.daysSince1970) * 86_400 + time.secondsOfDay }

    func shifted(by seconds: Double) -> ChkTime {
        let (shiftedTime, days) = time.shifted(by: seconds)
        return ChkTime(date: CivilDate(daysSince1970: date.daysSince1970 + days), time: shiftedTime, length: length)
    }

    var text: String {
        let clock = time.text
        let hours = clock.prefix(2)
        let minutes = clock.dropFirst(2).prefix(2)
        let rest = clock.dropFirst(4)
        return "\(padded(Int64(date.year), width: 4))-\(twoDigits(Int64(date.month)))-\(twoDigits(Int64(date.day)))"
            + "T\(hours):\(minutes):\(rest)Z"
    }
}

import Foundation

/// A receiver capture's NMEA sentences grouped into epochs by their UTC time, so that it can be replayed with
/// fresh times (``retimed(firstEpochAt:)``), repeated (``looped(toCover:)``) or cut (``epochs(from:to:)``).
///
/// Only lines starting with `$` are kept (any talker, proprietary sentences too); `#` comments, blank lines and
/// other text are dropped. A new epoch starts at every sentence whose time of day differs from the current
/// epoch's; a sentence without a time belongs to the epoch of the last timed sentence before it, and sentences
/// before the first timed one belong to the first epoch.
public struct NMEALog: Sendable {
    /// The sentences of one receiver epoch.
    public struct Epoch: Sendable, Equatable {
        /// Seconds from the log's first epoch (negative when the receiver's clock went backwards).
        public let offset: Double
        /// The sentences as captured, without line terminators.
        public let sentences: [String]
        /// Seconds since 1970 of this epoch in the capture; on day 0 (1970-01-01) when the log has no date.
        let sourceTime: Double

        /// The sentences with every time moved by `seconds` (see ``NMEASentence/shifting(_:by:)``).
        public func shifted(by seconds: Double) -> [String] {
            sentences.map { NMEASentence.shifting($0, by: seconds) }
        }

        /// The sentences with their times rewritten so that this epoch happens at `time`.
        public func retimed(to time: Date) -> [String] {
            shifted(by: time.timeIntervalSince1970 - sourceTime)
        }
    }

    /// The epochs in capture order.
    public let epochs: [Epoch]

    /// Reads a capture file (bytes kept as they are: the file is decoded as ISO 8859-1).
    public init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        self.init(text: String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) })))
    }

    /// Groups `lines` (capture lines, with or without terminators) into epochs.
    public init(lines: [String]) {
        self.init(text: lines.joined(separator: "\n"))
    }

    init(epochs: [Epoch]) {
        self.epochs = epochs
    }

    private init(text: String) {
        let sentences = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map(String.init)
            .filter { $0.hasPrefix("$") }
        epochs = EpochBuilder.epochs(of: sentences)
    }

    /// Every sentence in order, as captured.
    public var sentences: [String] { epochs.flatMap(\.sentences) }

    /// Seconds between the earliest and the latest epoch.
    public var span: Double {
        let offsets = epochs.map(\.offset)
        return (offsets.max() ?? 0) - (offsets.min() ?? 0)
    }

    /// The median of the positive gaps between consecutive epochs, or 1 s when there is none.
    public var typicalInterval: Double {
        let gaps = zip(epochs, epochs.dropFirst()).map { $1.offset - $0.offset }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return 1 }
        let middle = gaps.count / 2
        return gaps.count % 2 == 1 ? gaps[middle] : (gaps[middle - 1] + gaps[middle]) / 2
    }

    /// The time of the first epoch, when the capture has a date (RMC or ZDA).
    public var start: Date? {
        guard isDated, let first = epochs.first else { return nil }
        return Date(timeIntervalSince1970: first.sourceTime)
    }

    /// Whether any sentence carries a date (RMC or ZDA).
    public var isDated: Bool {
        sentences.contains { NMEASentence.date(of: $0) != nil }
    }

    /// Every sentence with every time field moved by `seconds` (days, months and years roll over).
    public func shifted(by seconds: Double) -> [String] {
        epochs.flatMap { $0.shifted(by: seconds) }
    }

    /// Every sentence with its times rewritten so that the first epoch happens at `time` (without a date in
    /// the capture, only the time of day of `time` matters).
    public func retimed(firstEpochAt time: Date) -> [String] {
        guard let first = epochs.first else { return [] }
        return shifted(by: time.timeIntervalSince1970 - first.sourceTime)
    }

    /// The log repeated until it covers at least `duration` seconds: repetition `k` is shifted by `k` times
    /// (``span`` + ``typicalInterval``), in its offsets and in its sentences' times, so times keep increasing.
    public func looped(toCover duration: Double) -> NMEALog {
        guard !epochs.isEmpty else { return self }
        let period = span + typicalInterval
        let repetitions = max(1, Int((duration / period).rounded(.up)))
        let looped = (0..<repetitions).flatMap { repetition in
            let shift = Double(repetition) * period
            return epochs.map {
                Epoch(offset: $0.offset + shift, sentences: $0.shifted(by: shift), sourceTime: $0.sourceTime + shift)
            }
        }
        return NMEALog(epochs: looped)
    }

    /// The epochs whose offset is in `start..<end` seconds, as a log whose first epoch has offset 0.
    public func epochs(from start: Double, to end: Double) -> NMEALog {
        let selected = epochs.filter { $0.offset >= start && $0.offset < end }
        guard let first = selected.first else { return NMEALog(epochs: []) }
        return NMEALog(
            epochs: selected.map {
                Epoch(offset: $0.offset - first.offset, sentences: $0.sentences, sourceTime: $0.sourceTime)
            }
        )
    }
}

/// Groups sentences into epochs and places the epochs in time.
private enum EpochBuilder {
    private struct Group {
        var timeOfDay: Double?
        var day: Int?
        var sentences: [String] = []
    }

    static func epochs(of sentences: [String]) -> [NMEALog.Epoch] {
        let groups = group(sentences)
        let times = absoluteTimes(of: groups)
        guard let first = times.first else { return [] }
        return zip(groups, times).map { group, time in
            NMEALog.Epoch(offset: time - first, sentences: group.sentences, sourceTime: time)
        }
    }

    private static func group(_ sentences: [String]) -> [Group] {
        var groups: [Group] = []
        var current = Group()
        for sentence in sentences {
            if let time = NMEASentence.timeOfDay(of: sentence) {
                if let currentTime = current.timeOfDay, currentTime != time {
                    groups.append(current)
                    current = Group()
                }
                current.timeOfDay = time
            }
            if current.day == nil { current.day = NMEASentence.date(of: sentence) }
            current.sentences.append(sentence)
        }
        if !current.sentences.isEmpty { groups.append(current) }
        return groups
    }

    /// Seconds since 1970 of each group: from its date where it has one, else from its neighbour's time plus the
    /// change of time of day, taken between -12 h and +12 h (a midnight wrap).
    private static func absoluteTimes(of groups: [Group]) -> [Double] {
        guard !groups.isEmpty else { return [] }
        let timesOfDay = groups.map { $0.timeOfDay ?? 0 }
        let anchor = groups.firstIndex { $0.day != nil } ?? 0
        var times = Array(repeating: 0.0, count: groups.count)
        times[anchor] = Double(groups[anchor].day ?? 0) * 86_400 + timesOfDay[anchor]
        for index in stride(from: anchor - 1, through: 0, by: -1) {
            times[index] = times[index + 1] - wrapped(timesOfDay[index + 1] - timesOfDay[index])
        }
        for index in (anchor + 1)..<groups.count {
            if let day = groups[index].day {
                times[index] = Double(day) * 86_400 + timesOfDay[index]
            } else {
                times[index] = times[index - 1] + wrapped(timesOfDay[index] - timesOfDay[index - 1])
            }
        }
        return times
    }

    private static func wrapped(_ difference: Double) -> Double {
        if difference >= 43_200 { return difference - 86_400 }
        if difference < -43_200 { return difference + 86_400 }
        return difference
    }
}

/// Reading and rewriting the time fields of single NMEA 0183 sentences.
public enum NMEASentence {
    /// Index of the time field by sentence formatter (the address without its talker).
    static let timeFields: [Substring: Int] = ["GGA": 1, "RMC": 1, "GLL": 5, "ZDA": 1, "GNS": 1, "GST": 1, "GBS": 1]

    /// The XOR of the bytes between `$` and `*` (or the end), as the two uppercase hex digits NMEA uses.
    public static func checksum(of sentence: String) -> String {
        hex(xor(Parts(sentence).body))
    }

    /// Whether `sentence` ends with `*HH` and `HH` is the XOR of the bytes between `$` and `*`.
    public static func hasValidChecksum(_ sentence: String) -> Bool {
        let parts = Parts(sentence)
        guard let stated = parts.statedChecksum else { return false }
        return stated == xor(parts.body)
    }

    /// `sentence` with its time (and date) fields moved by `seconds`.
    ///
    /// Handles GGA, RMC (time and `ddmmyy` date), GLL, ZDA (time, day, month, year), GNS, GST and GBS of any
    /// talker. The number of fractional digits is kept (the shift is rounded to it), an empty time stays
    /// empty, every other byte is unchanged, and the `*HH` checksum is recomputed: a captured checksum that
    /// was wrong stays wrong by the same bits, so that corrupt sentences stay corrupt. Other sentences are
    /// returned unchanged.
    public static func shifting(_ sentence: String, by seconds: Double) -> String {
        let parts = Parts(sentence)
        var fields = parts.body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let formatter = formatter(of: parts.body), let timeIndex = timeFields[formatter],
            timeIndex < fields.count
        else { return sentence }
        var dayCarry = Int((seconds / 86_400).rounded())
        if let time = NMEATime(fields[timeIndex]) {
            let (shifted, carry) = time.shifted(by: seconds)
            fields[timeIndex] = shifted.text
            dayCarry = carry
        } else if !fields[timeIndex].isEmpty {
            return sentence
        } else if formatter != "RMC" && formatter != "ZDA" {
            return sentence
        }
        shiftDate(in: &fields, formatter: formatter, days: dayCarry)
        let body = fields.joined(separator: ",")
        guard body != parts.body else { return sentence }
        return parts.reassembled(body: body)
    }

    /// The time of day of a sentence with a time field, in seconds.
    public static func timeOfDay(of sentence: String) -> Double? {
        let parts = Parts(sentence)
        guard let formatter = formatter(of: parts.body), let index = timeFields[formatter] else { return nil }
        let fields = parts.body.split(separator: ",", omittingEmptySubsequences: false)
        guard index < fields.count, let time = NMEATime(String(fields[index])) else { return nil }
        return time.secondsOfDay
    }

    /// Days since 1970-01-01 of the date in an RMC or ZDA sentence.
    public static func date(of sentence: String) -> Int? {
        let parts = Parts(sentence)
        let fields = parts.body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        switch formatter(of: parts.body) {
        case "RMC": return fields.count > 9 ? RMCDate(fields[9])?.civil.daysSince1970 : nil
        case "ZDA": return fields.count > 4 ? ZDADate(fields[2], fields[3], fields[4])?.civil.daysSince1970 : nil
        default: return nil
        }
    }

    private static func shiftDate(in fields: inout [String], formatter: Substring, days: Int) {
        guard days != 0 else { return }
        if formatter == "RMC", fields.count > 9, let date = RMCDate(fields[9]) {
            fields[9] = date.adding(days: days).text
        } else if formatter == "ZDA", fields.count > 4, let date = ZDADate(fields[2], fields[3], fields[4]) {
            let shifted = date.adding(days: days)
            (fields[2], fields[3], fields[4]) = (shifted.dayText, shifted.monthText, shifted.yearText)
        }
    }

    /// The sentence formatter (`GGA` of `GPGGA`), or nil for proprietary (`$P...`) and malformed addresses.
    private static func formatter(of body: Substring) -> Substring? {
        let address = body.prefix { $0 != "," }
        guard address.count == 5, address.first != "P", address.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            return nil
        }
        return address.suffix(3)
    }

    static func xor(_ text: Substring) -> UInt8 {
        text.unicodeScalars.reduce(UInt8(0)) { $0 ^ UInt8(truncatingIfNeeded: $1.value) }
    }

    static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }

    /// A sentence split into `$`, body, and `*HH` when it ends with a checksum.
    private struct Parts {
        let body: Substring
        let statedChecksum: UInt8?
        let checksumText: Substring?

        init(_ sentence: String) {
            let afterDollar = sentence.hasPrefix("$") ? sentence.dropFirst() : Substring(sentence)
            let tail = afterDollar.suffix(3)
            if tail.count == 3, tail.first == "*", let value = UInt8(tail.dropFirst(), radix: 16) {
                body = afterDollar.dropLast(3)
                statedChecksum = value
                checksumText = tail.dropFirst()
            } else {
                body = afterDollar
                statedChecksum = nil
                checksumText = nil
            }
        }

        /// `$` + `body` + a checksum carrying the same error as the captured one (none if there was none).
        func reassembled(body newBody: String) -> String {
            guard let stated = statedChecksum else { return "$" + newBody }
            let error = stated ^ NMEASentence.xor(body)
            return "$" + newBody + "*" + NMEASentence.hex(NMEASentence.xor(Substring(newBody)) ^ error)
        }
    }
}

/// An NMEA time of day `hhmmss[.f...]`, counted in units of its last fractional digit.
struct NMEATime {
    let units: Int64
    let digits: Int
    let hasPoint: Bool

    init?(_ text: String) {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0]
        let fraction = pieces.count > 1 ? pieces[1] : ""
        guard whole.count == 6, fraction.count <= 9, whole.allSatisfy(\.isASCIIDigit),
            fraction.allSatisfy(\.isASCIIDigit),
            let hours = Int64(whole.prefix(2)), let minutes = Int64(whole.dropFirst(2).prefix(2)),
            let seconds = Int64(whole.suffix(2)), hours < 24, minutes < 60, seconds <= 60
        else { return nil }
        digits = fraction.count
        hasPoint = pieces.count > 1
        units = (hours * 3600 + minutes * 60 + seconds) * Self.scale(digits) + (Int64(fraction) ?? 0)
    }

    private init(units: Int64, digits: Int, hasPoint: Bool) {
        self.units = units
        self.digits = digits
        self.hasPoint = hasPoint
    }

    var secondsOfDay: Double { Double(units) / Double(Self.scale(digits)) }

    /// The time moved by `seconds` (rounded to this time's precision) and the number of days it crossed.
    func shifted(by seconds: Double) -> (NMEATime, days: Int) {
        let scale = Self.scale(digits)
        let day = 86_400 * scale
        let total = units + Int64((seconds * Double(scale)).rounded())
        let days = floorDivision(total, day)
        return (NMEATime(units: total - days * day, digits: digits, hasPoint: hasPoint), Int(days))
    }

    var text: String {
        let scale = Self.scale(digits)
        let whole = units / scale
        var text = twoDigits(whole / 3600) + twoDigits(whole / 60 % 60) + twoDigits(whole % 60)
        if hasPoint { text += "." }
        if digits > 0 { text += padded(units % scale, width: digits) }
        return text
    }

    static func scale(_ digits: Int) -> Int64 {
        (0..<digits).reduce(Int64(1)) { value, _ in value * 10 }
    }
}

/// An RMC date `ddmmyy` (years 80-99 are 19xx, others 20xx).
private struct RMCDate {
    let civil: CivilDate

    init?(_ text: String) {
        guard text.count == 6, text.allSatisfy(\.isASCIIDigit), let day = Int(text.prefix(2)),
            let month = Int(text.dropFirst(2).prefix(2)), let year = Int(text.suffix(2))
        else { return nil }
        guard let civil = CivilDate(year: year < 80 ? 2000 + year : 1900 + year, month: month, day: day) else {
            return nil
        }
        self.civil = civil
    }

    private init(civil: CivilDate) { self.civil = civil }

    func adding(days: Int) -> RMCDate { RMCDate(civil: CivilDate(daysSince1970: civil.daysSince1970 + days)) }

    var text: String {
        twoDigits(Int64(civil.day)) + twoDigits(Int64(civil.month)) + twoDigits(Int64(civil.year % 100))
    }
}

/// A ZDA date in three fields `dd`, `mm`, `yyyy`.
private struct ZDADate {
    let civil: CivilDate

    init?(_ day: String, _ month: String, _ year: String) {
        guard let day = Int(day), let month = Int(month), year.count == 4, let year = Int(year),
            let civil = CivilDate(year: year, month: month, day: day)
        else { return nil }
        self.civil = civil
    }

    private init(civil: CivilDate) { self.civil = civil }

    func adding(days: Int) -> ZDADate { ZDADate(civil: CivilDate(daysSince1970: civil.daysSince1970 + days)) }

    var dayText: String { twoDigits(Int64(civil.day)) }
    var monthText: String { twoDigits(Int64(civil.month)) }
    var yearText: String { padded(Int64(civil.year), width: 4) }
}

/// A proleptic Gregorian date, converted to and from days since 1970-01-01 (H. Hinnant's algorithms).
struct CivilDate: Equatable {
    let year: Int
    let month: Int
    let day: Int

    init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    init(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = floorDivision(Int64(shifted), 146_097)
        let dayOfEra = Int(Int64(shifted) - era * 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + Int(era) * 400 + (month <= 2 ? 1 : 0)
    }

    var daysSince1970: Int {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = Int(floorDivision(Int64(adjustedYear), 400))
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

func floorDivision(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
}

func twoDigits(_ value: Int64) -> String { padded(value, width: 2) }

func padded(_ value: Int64, width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

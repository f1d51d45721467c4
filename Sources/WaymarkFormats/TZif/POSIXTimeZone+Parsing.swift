extension POSIXTimeZone {
    /// Parses a POSIX TZ string as RFC 8536, section 3.3, allows it in a TZif footer.
    ///
    /// - Throws: a message saying what is wrong and where, `expected an offset after "CET" at byte 4`.
    public init(_ text: some StringProtocol) throws(POSIXTimeZoneError) {
        var scanner = TZStringScanner(Array(text.utf8))
        let standardName = try scanner.designation()
        let standardOffset = try scanner.offset(after: standardName)
        let standard = LocalTimeType(
            utcOffsetSeconds: standardOffset,
            isDaylightSaving: false,
            abbreviation: standardName
        )
        guard !scanner.isAtEnd else {
            self.init(
                standard: standard,
                daylightSaving: nil,
                start: .month(3, week: 2, weekday: 0),
                end: .month(11, week: 1, weekday: 0)
            )
            return
        }
        let daylightName = try scanner.designation()
        var daylightOffset = standardOffset + 3600
        if !scanner.isAtEnd && scanner.peek != UInt8(ascii: ",") {
            daylightOffset = try scanner.offset(after: daylightName)
        }
        let daylightSaving = LocalTimeType(
            utcOffsetSeconds: daylightOffset,
            isDaylightSaving: true,
            abbreviation: daylightName
        )
        var start = TransitionDate.month(3, week: 2, weekday: 0)
        var end = TransitionDate.month(11, week: 1, weekday: 0)
        if scanner.take(",") {
            start = try scanner.transitionDate()
            guard scanner.take(",") else { throw scanner.error("expected \",\" and the end of daylight saving time") }
            end = try scanner.transitionDate()
        }
        guard scanner.isAtEnd else { throw scanner.error("unexpected text") }
        self.init(standard: standard, daylightSaving: daylightSaving, start: start, end: end)
    }
}

/// Reads the parts of a TZ string: designations, offsets, dates and times.
private struct TZStringScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func error(_ message: String) -> POSIXTimeZoneError {
        POSIXTimeZoneError("\(message) at byte \(index + 1) of \"\(String(decoding: bytes, as: UTF8.self))\"")
    }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// `CET`, or `<+0530>` quoted: three or more letters, or letters, digits, `+` and `-` in angle brackets.
    mutating func designation() throws(POSIXTimeZoneError) -> String {
        let quoted = take("<")
        let first = index
        while let byte = peek, Self.isLetter(byte) || (quoted && (Self.isDigit(byte) || byte == 0x2B || byte == 0x2D)) {
            index += 1
        }
        let name = String(decoding: bytes[first..<index], as: UTF8.self)
        guard name.utf8.count >= 3 else { throw error("expected a designation of three or more characters") }
        if quoted && !take(">") { throw error("expected \">\" closing the designation") }
        return name
    }

    /// A POSIX offset, `hh[:mm[:ss]]` west of UTC with an optional sign, as seconds east of UTC.
    mutating func offset(after name: String) throws(POSIXTimeZoneError) -> Int {
        guard let west = try signedTime(maximumHours: 24) else { throw error("expected an offset after \"\(name)\"") }
        return -west
    }

    /// `Jn`, `n` or `Mm.w.d`, then `/time` or 02:00.
    mutating func transitionDate() throws(POSIXTimeZoneError) -> TransitionDate {
        if take("J") {
            guard let day = number(), (1...365).contains(day) else { throw error("expected a day 1 ... 365 after J") }
            return .julianSkippingLeapDay(day, at: try time())
        }
        if take("M") {
            guard let month = number(), (1...12).contains(month), take("."),
                let week = number(), (1...5).contains(week), take("."),
                let weekday = number(), (0...6).contains(weekday)
            else { throw error("expected Mm.w.d: a month 1 ... 12, a week 1 ... 5, a weekday 0 ... 6") }
            return .month(month, week: week, weekday: weekday, at: try time())
        }
        guard let day = number(), (0...365).contains(day) else { throw error("expected a date: Jn, n or Mm.w.d") }
        return .zeroBased(day, at: try time())
    }

    /// `/[+-]hh[:mm[:ss]]`, hours up to 167, or 02:00 when there is no `/`.
    private mutating func time() throws(POSIXTimeZoneError) -> Int {
        guard take("/") else { return 7200 }
        guard let seconds = try signedTime(maximumHours: 167) else { throw error("expected a time after \"/\"") }
        return seconds
    }

    /// `[+-]hh[:mm[:ss]]` as seconds; nil when there are no digits.
    private mutating func signedTime(maximumHours: Int) throws(POSIXTimeZoneError) -> Int? {
        let sign = take("-") ? -1 : 1
        if sign > 0 { _ = take("+") }
        guard let hours = number() else { return nil }
        guard hours <= maximumHours else { throw error("hours beyond \(maximumHours)") }
        var seconds = hours * 3600
        for scale in [60, 1] {
            guard take(":") else { break }
            guard let part = number(), part < 60 else { throw error("expected minutes or seconds 00 ... 59") }
            seconds += part * scale
        }
        return sign * seconds
    }

    /// A decimal number of one to three digits.
    private mutating func number() -> Int? {
        var value = 0
        var digits = 0
        while let byte = peek, Self.isDigit(byte), digits < 3 {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
}

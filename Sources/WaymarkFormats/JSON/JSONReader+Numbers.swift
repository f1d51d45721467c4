extension JSONReader {
    /// The longest number read, in bytes: 17 significant digits carry everything a `Double` holds, and a limit
    /// keeps the conversion of a hostile megabyte of digits out.
    public static let maximumNumberLength = 512

    /// Reads a number: the `Double` nearest to its decimal value, as `Double(_:)` of its text gives it.
    ///
    /// A magnitude beyond `Double`'s range reads as an infinity, one below it as zero or a subnormal.
    ///
    /// - Throws: ``JSONReaderError`` for anything but RFC 8259's `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
    ///   or a number longer than ``maximumNumberLength``.
    public mutating func readNumber() throws(JSONReaderError) -> Double {
        guard try peek() == .number else { throw error("expected a number, found \(describeByte(at: index))") }
        return try scanNumber(converting: true)
    }

    /// Reads a number and returns its text as written (`-12.50e3`), checked as ``readNumber()`` checks it.
    public mutating func readNumberText() throws(JSONReaderError) -> String {
        guard try peek() == .number else { throw error("expected a number, found \(describeByte(at: index))") }
        let start = index
        try scanNumber(converting: false)
        return text(from: start)
    }

    /// Reads the number at ``index``; when `converting`, returns its value, else 0.
    ///
    /// Three ways to the correctly rounded value, fastest first: Clinger's fast path when the digits make an
    /// integer below 2^53 and the decimal exponent is within ±22 (both are exact `Double`s, and one multiplication
    /// or division rounds correctly); ``EiselLemire`` for up to 19 digits; the standard library for the rest.
    @discardableResult
    mutating func scanNumber(converting: Bool) throws(JSONReaderError) -> Double {
        let start = index
        let scan = bytes.withUnsafeBufferPointer { Self.scanNumber(in: $0, at: start) }
        if let problem = scan.problem {
            index = problem == .leadingZero ? start : scan.end
            let found = describeByte(at: scan.end)
            let message =
                switch problem {
                case .noDigitAfterMinus: "expected a digit after -"
                case .leadingZero: "a number must not start with 0 followed by more digits"
                case .noDigitAfterPoint: "expected a digit after the decimal point, found \(found)"
                case .noDigitInExponent: "expected a digit in the exponent, found \(found)"
                }
            throw error(message)
        }
        index = scan.end
        guard index - start <= Self.maximumNumberLength else {
            index = start
            throw error("a number of \(scan.end - start) characters; at most \(Self.maximumNumberLength) are read")
        }
        guard converting else { return 0 }
        if let value = Self.value(of: scan) { return value }
        guard let value = Double(text(from: start)) else {
            index = start
            throw error("a number the platform cannot convert")
        }
        return value
    }

    /// The number at `start` in `bytes` (a line read without a reader, such as a spool's location line) and the
    /// offset after it: the same `Double` that ``readNumber()`` reads there; nil where it would throw.
    public static func number(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (value: Double, end: Int)? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "-") || bytes[start] &- UInt8(ascii: "0") < 10 else {
            return nil
        }
        let scan = scanNumber(in: bytes, at: start)
        guard scan.problem == nil, scan.end - start <= maximumNumberLength else { return nil }
        if let value = value(of: scan) { return (value, scan.end) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<scan.end]), as: UTF8.self)
        return Double(text).map { ($0, scan.end) }
    }

    /// The value of a number scanned without a problem when its digits convert it: Clinger's fast path or
    /// ``EiselLemire``; nil when only the standard library's conversion of its text can.
    private static func value(of scan: NumberScan) -> Double? {
        guard scan.isExact else { return nil }
        if scan.significand <= 1 << 53 && (-22...22).contains(scan.exponent) {
            let magnitude =
                scan.exponent >= 0
                ? Double(scan.significand) * powersOfTen[scan.exponent]
                : Double(scan.significand) / powersOfTen[-scan.exponent]
            return scan.isNegative ? -magnitude : magnitude
        }
        return EiselLemire.double(significand: scan.significand, exponent: scan.exponent, negative: scan.isNegative)
    }

    private enum NumberProblem {
        case noDigitAfterMinus
        case leadingZero
        case noDigitAfterPoint
        case noDigitInExponent
    }

    /// What ``scanNumber(in:at:)`` found: the number is `±significand × 10^exponent` if ``isExact``.
    private struct NumberScan {
        /// Where the number ends; where the problem is, if there is one.
        var end: Int
        var isNegative = false
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        /// The significand holds every digit: there are at most 19 after any leading zeros.
        var isExact = true
        var problem: NumberProblem?
    }

    /// Checks the grammar of the number at `start` and gathers its digits.
    private static func scanNumber(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> NumberScan {
        var scan = NumberScan(end: start)
        func digit(at offset: Int) -> UInt64? {
            guard offset < bytes.count else { return nil }
            let value = bytes[offset] &- UInt8(ascii: "0")
            return value < 10 ? UInt64(value) : nil
        }
        func accumulate(_ digit: UInt64) {
            guard scan.significand != 0 || digit != 0 else { return }
            guard scan.significantDigits < 19 else {
                scan.isExact = false
                return
            }
            scan.significand = scan.significand &* 10 &+ digit
            scan.significantDigits += 1
        }
        var offset = start
        if bytes[offset] == UInt8(ascii: "-") {
            scan.isNegative = true
            offset += 1
        }
        guard let first = digit(at: offset) else {
            scan.end = offset
            scan.problem = .noDigitAfterMinus
            return scan
        }
        if first == 0 {
            offset += 1
            if digit(at: offset) != nil {
                scan.problem = .leadingZero
                return scan
            }
        } else {
            while let value = digit(at: offset) {
                accumulate(value)
                if !scan.isExact { scan.exponent += 1 }
                offset += 1
            }
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digit(at: offset) != nil else {
                scan.end = offset
                scan.problem = .noDigitAfterPoint
                return scan
            }
            while let value = digit(at: offset) {
                accumulate(value)
                if scan.isExact { scan.exponent -= 1 }
                offset += 1
            }
        }
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            offset += 1
            var isNegativeExponent = false
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                isNegativeExponent = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard digit(at: offset) != nil else {
                scan.end = offset
                scan.problem = .noDigitInExponent
                return scan
            }
            var written = 0
            while let value = digit(at: offset) {
                if written < 1_000_000 { written = written * 10 + Int(value) }
                offset += 1
            }
            scan.exponent += isNegativeExponent ? -written : written
        }
        scan.end = offset
        return scan
    }

    /// The powers of ten that a `Double` holds exactly.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}

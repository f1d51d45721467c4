/// Reads the quantities of the configuration file, a decimal number and a unit: `"1.5s"`, `"64KB"`.
///
/// The number has digits, optionally a point and more digits, and no sign, spaces or `_`; the unit follows
/// at once. The result is exact or nothing: a fraction finer than the base unit, or a total beyond
/// `Int64`, is rejected rather than rounded.
enum ConfigQuantity {
    /// The quantity `text` in base units, given the size of each unit in base units; nil if `text` is not one.
    static func parse(_ text: String, units: [String: Int64]) -> Int64? {
        let utf8 = Substring(text).utf8
        let integerDigits = utf8.prefix(while: isDigit)
        var rest = utf8.dropFirst(integerDigits.count)
        var fractionDigits = rest.prefix(0)
        if rest.first == UInt8(ascii: ".") {
            fractionDigits = rest.dropFirst().prefix(while: isDigit)
            guard !fractionDigits.isEmpty else { return nil }
            rest = rest.dropFirst(1 + fractionDigits.count)
        }
        guard !integerDigits.isEmpty,
            let unit = units[String(decoding: rest, as: UTF8.self)],
            let integer = Int64(String(decoding: integerDigits, as: UTF8.self))
        else { return nil }
        let (whole, overflow) = integer.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        guard let fraction = fractionInUnits(fractionDigits, unit: unit) else { return nil }
        let (total, sumOverflow) = whole.addingReportingOverflow(fraction)
        return sumOverflow ? nil : total
    }

    /// `0.DIGITS × unit`, if that is a whole number of base units.
    private static func fractionInUnits(_ digits: Substring.UTF8View.SubSequence, unit: Int64) -> Int64? {
        var significant = digits
        while significant.last == UInt8(ascii: "0") {
            significant = significant.dropLast()
        }
        guard !significant.isEmpty else { return 0 }
        guard significant.count <= 18, let numerator = Int64(String(decoding: significant, as: UTF8.self)) else {
            return nil
        }
        var scale: Int64 = 1
        for _ in 0..<significant.count {
            scale *= 10
        }
        // numerator < scale, so the quotient is below `unit` and cannot overflow.
        let product = unit.multipliedFullWidth(by: numerator)
        let (quotient, remainder) = scale.dividingFullWidth(product)
        return remainder == 0 ? quotient : nil
    }

    /// `value` base units written in the largest of `units` that holds it whole: `90` seconds as `"90s"`.
    /// `units` runs from the largest to the smallest, which must be 1.
    static func format(_ value: Int64, units: [(name: String, size: Int64)]) -> String {
        guard value != 0 else { return "0" + (units.last?.name ?? "") }
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        for (name, size) in units where magnitude.isMultiple(of: size.magnitude) {
            return "\(sign)\(magnitude / size.magnitude)\(name)"
        }
        return "\(sign)\(magnitude)"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

extension MagneticModel {
    /// The highest degree ``init(cof:)`` accepts: NOAA's software evaluates models up to this degree with
    /// the same recursion as this one (its `MAG_PcupLow`), and switches to another beyond it.
    public static let maximumSupportedDegree = 16

    /// A model from the text of a coefficient file in NOAA's `.COF` format, as published with the WMM.
    ///
    /// The first line is `epoch model-name release-date` (`    2025.0            WMM-2025     11/13/2024`).
    /// Then one line `n m g h ġ ḣ` per coefficient, degree n = 1, 2, ... and order m = 0 ... n in turn, g and
    /// h in nT and their yearly rates in nT/yr (Schmidt semi-normalised); then a line of `9`s. Fields are
    /// separated by any run of spaces or tabs; blank lines are ignored, so is everything after the first
    /// line of `9`s; `\r\n` line ends are accepted. The model is valid for five years from its epoch, as
    /// every WMM is.
    ///
    /// - Throws: ``MagneticModelError`` naming the first line that does not fit, and how.
    public init(cof text: String) throws(MagneticModelError) {
        // `isNewline`: "\r\n" is one `Character`, which a split on "\n" would not see.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .lazy.map { (number: $0.offset + 1, fields: $0.element.split(whereSeparator: Self.isBlank)) }
            .filter { !$0.fields.isEmpty }
            .makeIterator()

        guard let header = lines.next() else {
            throw MagneticModelError(code: .malformedHeader, line: 1, message: "the file is empty")
        }
        let (epoch, name, releaseDate) = try Self.header(header.fields, line: header.number)

        var coefficients: [Coefficient] = []
        var expected = (n: 1, m: 0)
        var lastLine = header.number
        while true {
            guard let (number, fields) = lines.next() else {
                throw MagneticModelError(
                    code: .missingTerminator,
                    line: lastLine + 1,
                    message: "the file ends after \(coefficients.count) coefficients, without its line of 9s"
                )
            }
            lastLine = number
            if fields.count == 1, fields[0].allSatisfy({ $0 == "9" }) {
                guard expected.m == 0, !coefficients.isEmpty else {
                    throw MagneticModelError(
                        code: .unexpectedDegreeOrOrder,
                        line: number,
                        message: coefficients.isEmpty
                            ? "the line of 9s comes before any coefficient"
                            : "the line of 9s comes before degree \(expected.n) is complete: "
                                + "expected n = \(expected.n), m = \(expected.m)"
                    )
                }
                break
            }
            let coefficient = try Self.coefficient(fields, line: number)
            guard coefficient.n == expected.n, coefficient.m == expected.m else {
                throw MagneticModelError(
                    code: .unexpectedDegreeOrOrder,
                    line: number,
                    message: "expected n = \(expected.n), m = \(expected.m), found n = \(coefficient.n), "
                        + "m = \(coefficient.m): " + Self.quoted(fields)
                )
            }
            guard coefficient.n <= Self.maximumSupportedDegree else {
                throw MagneticModelError(
                    code: .unexpectedDegreeOrOrder,
                    line: number,
                    message: "degree \(coefficient.n) is beyond the \(Self.maximumSupportedDegree) this "
                        + "synthesis supports"
                )
            }
            guard coefficient.m > 0 || (coefficient.h == 0 && coefficient.hRate == 0) else {
                throw MagneticModelError(
                    code: .malformedCoefficient,
                    line: number,
                    message: "h and its rate must be 0 for m = 0: " + Self.quoted(fields)
                )
            }
            coefficients.append(coefficient)
            expected = expected.m == expected.n ? (expected.n + 1, 0) : (expected.n, expected.m + 1)
        }
        self.init(name: name, epoch: epoch, releaseDate: releaseDate, coefficients: coefficients)
    }

    /// One line of the file: degree, order, g and h (nT) and their rates (nT/yr).
    struct Coefficient {
        var n: Int
        var m: Int
        var g: Double
        var h: Double
        var gRate: Double
        var hRate: Double
    }

    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    private static func header(
        _ fields: [Substring],
        line: Int
    ) throws(MagneticModelError) -> (epoch: Double, name: String, releaseDate: String) {
        guard fields.count == 3, let epoch = Double(fields[0]), (1900...2200).contains(epoch) else {
            throw MagneticModelError(
                code: .malformedHeader,
                line: line,
                message: "expected \"epoch model-name release-date\" with an epoch year from 1900 to 2200, found "
                    + quoted(fields)
            )
        }
        return (epoch, String(fields[1]), String(fields[2]))
    }

    private static func coefficient(_ fields: [Substring], line: Int) throws(MagneticModelError) -> Coefficient {
        guard fields.count == 6 else {
            throw MagneticModelError(
                code: .malformedCoefficient,
                line: line,
                message: "expected 6 fields \"n m g h gdot hdot\", found \(fields.count): " + quoted(fields)
            )
        }
        guard let n = Int(fields[0]), let m = Int(fields[1]) else {
            throw MagneticModelError(
                code: .malformedCoefficient,
                line: line,
                message: "n and m must be integers: " + quoted(fields)
            )
        }
        var values: [Double] = []
        for field in fields[2...] {
            guard let value = Double(field), value.isFinite else {
                throw MagneticModelError(
                    code: .malformedCoefficient,
                    line: line,
                    message: "\(field) is not a finite number: " + quoted(fields)
                )
            }
            values.append(value)
        }
        return Coefficient(n: n, m: m, g: values[0], h: values[1], gRate: values[2], hRate: values[3])
    }

    /// The fields of a line, as one string in quotes, shortened to 60 characters.
    private static func quoted(_ fields: [Substring]) -> String {
        let text = fields.joined(separator: " ")
        return "\"" + (text.count > 60 ? String(text.prefix(57)) + "..." : text) + "\""
    }
}

import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkCore

@Suite("The WMM2025 coefficient file: the embedded text and the parser")
struct MagneticCoefficientFileTests {
    static let file = Fixtures.packageRoot.appendingPathComponent("Sources/WaymarkCore/Magnetism/WMM2025.COF")

    static func officialText() throws -> String { try String(contentsOf: file, encoding: .utf8) }

    /// The official text with its 1-based line `number` replaced by `replacement` (nil removes it).
    static func official(replacingLine number: Int, with replacement: String?) throws -> String {
        var lines = try officialText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let replacement { lines[number - 1] = replacement } else { lines.remove(at: number - 1) }
        return lines.joined(separator: "\n")
    }

    @Test("the embedded text is WMM2025.COF byte for byte")
    func embeddedTextIsTheFile() throws {
        let bytes = try Data(contentsOf: Self.file)
        #expect(Array(MagneticModel.wmm2025COF.utf8) == Array(bytes))
        #expect(bytes.count == 4_554)
        let lines = MagneticModel.wmm2025COF.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 94 && lines.last == "", "93 lines and a final newline")
        #expect(lines.first == "    2025.0            WMM-2025     11/13/2024")
        #expect(lines[1] == "  1  0  -29351.8       0.0       12.0        0.0")
        #expect(lines[90] == " 12 12      -0.7       0.2       -0.1       -0.1")
    }

    @Test("line ends, tabs and the spacing of NOAA's other copies do not change the model")
    func whitespaceVariants() throws {
        let official = try Self.officialText()
        let variants = [
            official.replacingOccurrences(of: "\n", with: "\r\n"),
            // CIRES-Geomagnetism/wmm's copy: 8 spaces before the date, no final newline.
            official.replacingOccurrences(of: "WMM-2025     11/13/2024", with: "WMM-2025        11/13/2024")
                .trimmingCharacters(in: .newlines),
            official.replacingOccurrences(of: "  ", with: "\t"),
            "\n\n" + official.replacingOccurrences(of: "\n", with: "\n\n") + "anything after the line of 9s\n",
        ]
        let points = [(80.0, 0.0, 2025.0), (-80, 240, 2027.5), (0, 120, 2029.9), (33, -145, 2026.5)]
        for variant in variants {
            let model = try MagneticModel(cof: variant)
            #expect(model.name == "WMM-2025" && model.epoch == 2025 && model.maximumDegree == 12)
            for (latitude, longitude, year) in points {
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                let expected = MagneticModel.wmm2025.field(at: coordinate, altitudeHAE: 0, year: year)
                #expect(model.field(at: coordinate, altitudeHAE: 0, year: year) == expected)
            }
        }
    }

    @Test("a model of a lower degree: the first lines of the file and a line of 9s")
    func lowerDegree() throws {
        let lines = try Self.officialText().split(separator: "\n").prefix(6)
        let model = try MagneticModel(cof: lines.joined(separator: "\n") + "\n9999999999\n")
        #expect(model.maximumDegree == 2)
        let field = try #require(model.field(at: .init(latitude: 45, longitude: 45), altitudeHAE: 0, year: 2026))
        let full = try #require(
            MagneticModel.wmm2025.field(at: .init(latitude: 45, longitude: 45), altitudeHAE: 0, year: 2026)
        )
        // The dipole and quadrupole hold most of the field, not all of it.
        #expect(abs(field.totalIntensity - full.totalIntensity) > 10)
        #expect(abs(field.totalIntensity - full.totalIntensity) < 0.1 * full.totalIntensity)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var text: @Sendable () throws -> String
        var code: MagneticModelError.Code
        var line: Int
        var message: String
    }

    static let malformed: [Malformed] = [
        Malformed(
            testDescription: "empty",
            text: { "" },
            code: .malformedHeader,
            line: 1,
            message: "the file is empty"
        ),
        Malformed(
            testDescription: "header without a release date",
            text: { try official(replacingLine: 1, with: "    2025.0            WMM-2025") },
            code: .malformedHeader,
            line: 1,
            message:
                #"expected "epoch model-name release-date" with an epoch year from 1900 to 2200, found "2025.0 WMM-2025""#
        ),
        Malformed(
            testDescription: "header with an epoch that is not a year",
            text: { try official(replacingLine: 1, with: "    20250            WMM-2025     11/13/2024") },
            code: .malformedHeader,
            line: 1,
            message: "expected \"epoch model-name release-date\""
        ),
        Malformed(
            testDescription: "a coefficient line with 5 fields",
            text: { try official(replacingLine: 14, with: "  4  1     -71.7     40.0       -3.6") },
            code: .malformedCoefficient,
            line: 14,
            message: #"expected 6 fields "n m g h gdot hdot", found 5: "4 1 -71.7 40.0 -3.6""#
        ),
        Malformed(
            testDescription: "a number that is not one",
            text: { try official(replacingLine: 5, with: "  2  1    2951.1   -3133.6       -5,2      -27.7") },
            code: .malformedCoefficient,
            line: 5,
            message: "-5,2 is not a finite number"
        ),
        Malformed(
            testDescription: "NaN",
            text: { try official(replacingLine: 5, with: "  2  1    nan   -3133.6       -5.2      -27.7") },
            code: .malformedCoefficient,
            line: 5,
            message: "nan is not a finite number"
        ),
        Malformed(
            testDescription: "a degree that is not an integer",
            text: { try official(replacingLine: 5, with: "  2.0  1    2951.1   -3133.6       -5.2      -27.7") },
            code: .malformedCoefficient,
            line: 5,
            message: "n and m must be integers"
        ),
        Malformed(
            testDescription: "h for m = 0",
            text: { try official(replacingLine: 4, with: "  2  0   -2556.6       1.0      -11.6        0.0") },
            code: .malformedCoefficient,
            line: 4,
            message: "h and its rate must be 0 for m = 0"
        ),
        Malformed(
            testDescription: "a line missing",
            text: { try official(replacingLine: 10, with: nil) },
            code: .unexpectedDegreeOrOrder,
            line: 10,
            message: "expected n = 3, m = 3, found n = 4, m = 0"
        ),
        Malformed(
            testDescription: "no line of 9s",
            text: {
                try officialText().replacingOccurrences(
                    of: "999999999999999999999999999999999999999999999999\n",
                    with: ""
                )
            },
            code: .missingTerminator,
            line: 92,
            message: "the file ends after 90 coefficients, without its line of 9s"
        ),
        Malformed(
            testDescription: "the line of 9s in the middle of a degree",
            text: { try official(replacingLine: 50, with: "999999999999") },
            code: .unexpectedDegreeOrOrder,
            line: 50,
            message: "the line of 9s comes before degree 9 is complete: expected n = 9, m = 4"
        ),
        Malformed(
            testDescription: "the line of 9s before any coefficient",
            text: { "    2025.0            WMM-2025     11/13/2024\n99999\n" },
            code: .unexpectedDegreeOrOrder,
            line: 2,
            message: "the line of 9s comes before any coefficient"
        ),
        Malformed(
            testDescription: "degree 17",
            text: {
                var text = "2025.0 DEEP 01/01/2025\n"
                for n in 1...17 { for m in 0...n { text += "\(n) \(m) 1 \(m == 0 ? 0 : 1) 0 0\n" } }
                return text + "9999\n"
            },
            code: .unexpectedDegreeOrOrder,
            line: 154,
            message: "degree 17 is beyond the 16 this synthesis supports"
        ),
    ]

    @Test("a malformed file: the first line that does not fit, and what is wrong with it", arguments: malformed)
    func malformedFile(_ example: Malformed) throws {
        let text = try example.text()
        let error = #expect(throws: MagneticModelError.self) { try MagneticModel(cof: text) }
        #expect(error?.code == example.code, "\(String(describing: error))")
        #expect(error?.line == example.line, "\(String(describing: error))")
        #expect(error?.message.contains(example.message) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("line \(example.line): ") == true)
    }
}

import ArgumentParser
import Glibc
import WaymarkFormats

extension Waymark {
    /// `waymark geo`: geodesy on WGS84 and the magnetic model from the command line, for checking what the
    /// agent computes.
    struct Geo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geo",
            abstract: "Geodesy on the WGS84 ellipsoid, the earth's magnetic field, and the places of points.",
            subcommands: [Distance.self, Declination.self, Place.self]
        )
    }
}

extension Waymark.Geo {
    /// What is wrong with the command line's coordinates, for one line on stderr.
    struct CoordinateError: Error {
        var message: String
    }

    /// A geo command's values, made from its arguments by `validate()`, or what is wrong with them.
    typealias Checked<Value> = Result<Value, CoordinateError>

    /// The checked value, or the problem reported as one line on stderr that names the command and the
    /// argument, and exit 2.
    ///
    /// `validate()` checks and `run()` reports: argument-parser prints `Error: ...` with the usage and exits 64 for
    /// a failed `ExpressibleByArgument` or a thrown `ValidationError`, and it calls `validate()` before it
    /// answers `--help`, so `validate()` neither prints nor throws.
    static func value<Value>(_ checked: Checked<Value>?, command: String) throws(ExitCode) -> Value {
        switch checked {
        case .success(let value)?:
            return value
        case .failure(let error)?:
            printError("waymark geo \(command): \(error.message)")
            throw ExitCode(2)
        case nil:
            preconditionFailure("run() before validate()")
        }
    }

    /// Positional coordinates in decimal degrees, one per name (`LAT1 LON1 LAT2 LON2`, `LAT LON`), or the first
    /// problem found, naming the argument. Latitudes are -90 to 90, longitudes -360 to 360; a leading `--` is
    /// skipped, as most commands skip it.
    static func degrees(_ arguments: [String], names: [String]) throws(CoordinateError) -> [Double] {
        let arguments = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        guard arguments.count == names.count else {
            throw CoordinateError(
                message: "expected \(names.count) numbers, \(names.joined(separator: " ")), got \(arguments.count): "
                    + arguments.joined(separator: " ")
            )
        }
        return try zip(names, arguments).map { (name, text) throws(CoordinateError) in
            let isLatitude = name.hasPrefix("LAT")
            let limit = isLatitude ? 90.0 : 360.0
            guard let value = Double(text), value.isFinite else {
                throw CoordinateError(message: "\(name) \(text): not a number; expected decimal degrees")
            }
            guard abs(value) <= limit else {
                let kind = isLatitude ? "latitude" : "longitude"
                throw CoordinateError(
                    message: "\(name) \(text): must be a \(kind) from -\(Int(limit)) to \(Int(limit))"
                )
            }
            return value
        }
    }

    /// `value` with `decimals` decimals, never "-0.000".
    static func fixed(_ value: Double, decimals: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let length = withVaList([Int32(decimals), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        let text = String(decoding: buffer.prefix(Int(max(0, length))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("-") && text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." })
            ? String(text.dropFirst()) : text
    }

    /// One JSON object written by `body`, as one line without its newline.
    static func json(_ body: (inout JSONObjectWriter) -> Void) -> String {
        var buffer: [UInt8] = []
        JSONObjectWriter.write(into: &buffer, body)
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }
}

extension JSONObjectWriter {
    /// A number with `decimals` decimals, so that the geo commands' output is stable (``Waymark/Geo/fixed(_:decimals:)``).
    mutating func fixed(_ key: StaticString, _ value: Double, decimals: Int) {
        member(key) { $0.append(contentsOf: Waymark.Geo.fixed(value, decimals: decimals).utf8) }
    }

    /// A number as Swift prints it (`-80.0`, `1e-07`): an input echoed as it was read.
    mutating func number(_ key: StaticString, described value: Double) {
        member(key) { $0.append(contentsOf: value.description.utf8) }
    }
}

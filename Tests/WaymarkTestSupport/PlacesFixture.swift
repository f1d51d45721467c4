import Foundation

/// The gazetteer of `data/places/`, built once per test process by the `waymark` under test
/// (`waymark places build`, as `scripts/build-places.sh` runs it) into a temporary directory.
public enum PlacesFixture {
    /// The GeoNames populated places (gzip) and country names the repository ships.
    public static let cities = Fixtures.packageRoot.appendingPathComponent("data/places/cities1000.tsv.gz").path
    public static let countries = Fixtures.packageRoot.appendingPathComponent("data/places/countries.tsv").path

    /// The path of the built gazetteer file; the build's failure, if it failed.
    public static let file: Result<String, PlacesFixtureError> = {
        do {
            let directory = try Fixtures.temporaryDirectory()
            let output = directory.appendingPathComponent("places.bin").path
            let script = "gzip -dc \"$1\" | \"$2\" places build - \"$3\" \"$4\""
            let result = try WaymarkBinary.run(
                ["-c", script, "sh", cities, WaymarkBinary.path, countries, output],
                executable: "/bin/sh",
                timeout: 120
            )
            guard result.status == 0 else { return .failure(PlacesFixtureError(message: result.stderr)) }
            return .success(output)
        } catch {
            return .failure(PlacesFixtureError(message: "\(error)"))
        }
    }()

    /// The decompressed source text of the populated places.
    public static func citiesText() throws -> [UInt8] {
        let result = try WaymarkBinary.run(["-dc", cities], executable: "/bin/gzip", timeout: 60)
        guard result.status == 0 else { throw PlacesFixtureError(message: result.stderr) }
        return Array(result.stdout.utf8)
    }
}

public struct PlacesFixtureError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { "cannot build the test gazetteer: \(message)" }
}

import Foundation
import Testing
import WaymarkTestSupport

/// `waymark trips list --local` on the Regensburg drive replayed into a spool: the times in the start place's
/// zone equal Foundation's formatting of the same instants in Europe/Berlin; a zone file that cannot be read
/// or a trip without places leaves the times in UTC, said once on stderr, and the listing still succeeds.
@Suite("trips list --local", .serialized)
struct TripsLocalTimeTests {
    static let capture = Fixtures.gpsdLog("20100411_Geko_Regensburg.log.chk")

    /// A workspace with the drive replayed into its spool with `pause_after = "30s"` and `settings`.
    static func replayed(_ settings: String) throws -> DurabilityTests.Workspace {
        let workspace = try DurabilityTests.Workspace("[activity]\npause_after = \"30s\"\n\(settings)\n")
        let result = try WaymarkBinary.run(["replay", capture, "--spool", "--config", workspace.config])
        #expect(result.status == 0, "\(result.stderr)")
        return workspace
    }

    /// `instant` as ISO 8601 in Europe/Berlin with milliseconds and the offset, by Foundation.
    static func berlin(_ instant: String) throws -> String {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(parser.date(from: instant))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"
        return formatter.string(from: date)
    }

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("the drive's trips in Europe/Berlin's local time, in the table and in JSON")
    func localTimes() throws {
        let workspace = try Self.replayed("[places]\nfile = \"\(try PlacesFixture.file.get())\"")
        let json = try WaymarkBinary.run(["trips", "list", "--local", "--json", "--config", workspace.config])
        #expect(json.status == 0 && json.stderr.isEmpty, "\(json.stderr)")
        let trips = try Self.objects(json.stdout)
        #expect(trips.count == 3)
        let table = try WaymarkBinary.run(["trips", "list", "--local", "--config", workspace.config])
        #expect(table.status == 0 && table.stderr.isEmpty, "\(table.stderr)")
        #expect(table.stdoutLines.count == 1 + trips.count)
        #expect(table.stdoutLines.first?.hasPrefix("start                          end ") == true)
        for (trip, row) in zip(trips, table.stdoutLines.dropFirst()) {
            let start = try #require(trip["start_time"] as? String)
            let end = try #require(trip["time"] as? String)
            #expect(trip["local_start_time"] as? String == (try Self.berlin(start)))
            #expect(trip["local_end_time"] as? String == (try Self.berlin(end)))
            #expect(trip["local_timezone"] as? String == "Europe/Berlin")
            // The capture's receiver dates the 2010 drive 1024 GPS weeks late, on 2029-11-25: CET, +01:00.
            #expect((trip["local_start_time"] as? String)?.hasSuffix("+01:00") == true)
            let columns = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            #expect(columns.prefix(2) == [try Self.berlin(start), try Self.berlin(end)], "\(row)")
            #expect(columns.contains("Europe/Berlin"))
        }
    }

    @Test("a zone file that cannot be read: UTC, one line naming the zone and why, exit 0")
    func unreadableZone() throws {
        let workspace = try Self.replayed("[places]\nfile = \"\(try PlacesFixture.file.get())\"")
        var environment = ProcessInfo.processInfo.environment
        environment["TZDIR"] = workspace.directory.appendingPathComponent("no-zoneinfo").path
        let result = try WaymarkBinary.run(
            ["trips", "list", "--local", "--config", workspace.config],
            environment: environment
        )
        #expect(result.status == 0)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("zone Europe/Berlin") == true)
        #expect(warnings.first?.contains("No such file or directory") == true)
        #expect(result.stdoutLines.count == 4)
        for row in result.stdoutLines.dropFirst() {
            let columns = row.split(separator: " ").map(String.init)
            #expect(columns[0].hasSuffix("Z") && columns[1].hasSuffix("Z") && columns.contains("UTC"), "\(row)")
        }
    }

    @Test("trips without places: UTC, said once")
    func withoutPlaces() throws {
        let workspace = try Self.replayed("[places]\nenabled = false")
        let result = try WaymarkBinary.run(["trips", "list", "--local", "--json", "--config", workspace.config])
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("no time zone"))
        let trips = try Self.objects(result.stdout)
        #expect(trips.count == 3)
        for trip in trips {
            #expect(trip["local_start_time"] as? String == trip["start_time"] as? String)
            #expect(trip["local_end_time"] as? String == trip["time"] as? String)
            #expect(trip["local_timezone"] as? String == "UTC")
        }
    }
}

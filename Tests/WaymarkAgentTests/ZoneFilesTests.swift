import Testing
import WaymarkAgent
import WaymarkFormats

/// The zone files read by name: a real zone, a missing one, a name that would leave the directory, a file that
/// is not TZif.
@Suite struct ZoneFilesTests {
    let files = ZoneFiles(directory: "/usr/share/zoneinfo")

    @Test("a zone by its name")
    func realZone() throws {
        let berlin = try files.zone(named: "Europe/Berlin")
        // 2029-11-25T16:57:54Z: CET.
        #expect(berlin.localTime(at: 1_890_320_274).utcOffsetSeconds == 3600)
    }

    @Test(
        "refused: what is wrong, naming the zone",
        arguments: [
            ("Europe/Nowhere", "unreadable", "No such file or directory"),
            ("../../../etc/passwd", "invalid_name", "not a zone name"),
            ("/etc/passwd", "invalid_name", "not a zone name"),
            ("Europe//Berlin", "invalid_name", "not a zone name"),
            ("", "invalid_name", "not a zone name"),
            ("zone.tab", "not_tzif", "not a TZif file"),
        ]
    )
    func refused(name: String, code: String, reason: String) {
        do {
            _ = try files.zone(named: name)
            Issue.record("\(name) was read")
        } catch {
            #expect(error.code.description == code)
            #expect(error.description.hasPrefix("zone \(name): ") && error.description.contains(reason), "\(error)")
        }
    }
}

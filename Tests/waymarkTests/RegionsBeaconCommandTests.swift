import Glibc
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark regions` with beacon regions, run as an operator runs it (``RegionsCommandTests/Workspace``).
@Suite("waymark regions: beacon regions")
struct RegionsBeaconCommandTests {
    typealias Workspace = RegionsCommandTests.Workspace

    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let beaconUUID = BeaconUUID(uuid)!

    /// The region file's regions of both kinds, read as the agent reads them.
    static func entries(_ workspace: Workspace) throws -> [RegionFile.Entry] {
        let bytes = try #require(workspace.bytes)
        return try RegionFile(parsing: Array(bytes), fileName: workspace.regionFile).checkedEntries()
    }

    /// The lines of `list` after its header, split into their words.
    static func rows(_ workspace: Workspace) throws -> [[String]] {
        let list = try workspace.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        return list.stdoutLines.dropFirst().map { $0.split(separator: " ").map(String.init) }
    }

    @Test("add a beacon region with --id and --ranging: the file holds it, list and list --json show it")
    func addBeacon() throws {
        let workspace = try Workspace()
        let added = try workspace.run([
            "add", "--id", "trailer-7", "--beacon", "\(Self.uuid):1:7", "--name", "Trailer 7", "--ranging",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdoutLines == ["added region \"trailer-7\" to \(workspace.regionFile)"])
        let trailer = BeaconRegion(
            id: "trailer-7",
            name: "Trailer 7",
            constraint: BeaconConstraint(uuid: Self.beaconUUID, major: 1, minor: 7),
            ranging: true
        )
        #expect(try Self.entries(workspace) == [.beacon(trailer)])
        #expect(try workspace.regions().isEmpty, "no geographic region")
        // The UUID in lower case, the region given by its ID argument, a major alone, never ranged, exits only.
        let fleet = try workspace.run([
            "add", "fleet", "--beacon", Self.uuid.lowercased() + ":300", "--no-ranging", "--no-notify-entry",
        ])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        #expect(try workspace.run(["add", "depot", "--lat", "49", "--lon", "12", "--radius", "150"]).status == 0)
        #expect(try workspace.run(["add", "any", "--beacon", Self.uuid]).status == 0)
        #expect(
            try Self.rows(workspace) == [
                ["trailer-7", "beacon", "\(Self.uuid):1:7", "entry+exit+ranging", "Trailer", "7"],
                ["fleet", "beacon", "\(Self.uuid):300", "exit+no-ranging"],
                ["depot", "circle", "150", "m", "entry+exit"],
                ["any", "beacon", Self.uuid, "entry+exit"],
            ]
        )
        let json = try workspace.run(["list", "--json"])
        #expect(json.status == 0)
        #expect(json.stdout.utf8.elementsEqual(try #require(workspace.bytes)))
        #expect(json.stdout.contains(#""beacon": {"uuid": "\#(Self.uuid)", "major": 300}, "ranging": false}"#))
    }

    @Test("replace a beacon region without --name: it keeps its name; remove it by its id")
    func replaceAndRemove() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(["add", "t", "--beacon", Self.uuid, "--name", "Trailer"]).status == 0)
        #expect(try workspace.run(["add", "c", "--lat", "1", "--lon", "2", "--radius", "3"]).status == 0)
        let replaced = try workspace.run(["add", "--id", "t", "--beacon", "\(Self.uuid):2"])
        #expect(replaced.stdoutLines == ["replaced region \"t\" in \(workspace.regionFile)"], "\(replaced.stderr)")
        #expect(
            try Self.entries(workspace).first
                == .beacon(
                    BeaconRegion(
                        id: "t",
                        name: "Trailer",
                        constraint: BeaconConstraint(uuid: Self.beaconUUID, major: 2)
                    )
                )
        )
        // One id, one region, whatever its kind: a circle can take a beacon region's id, and the other way.
        #expect(try workspace.run(["add", "c", "--beacon", Self.uuid]).status == 0)
        #expect(try Self.entries(workspace).map(\.beaconRegion?.id) == ["t", "c"])
        let removed = try workspace.run(["remove", "t"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdoutLines == ["removed region \"t\" from \(workspace.regionFile)"])
        #expect(try Self.entries(workspace).map(\.id) == ["c"])
    }

    /// Arguments that cannot make a region, and the one line each must give on stderr.
    static let refusals: [([String], String)] = [
        (
            ["add", "--id", "x", "--beacon", "\(uuid):1:70000"],
            "--beacon \(uuid):1:70000: expected UUID[:MAJOR[:MINOR]]: the proximity UUID as 8-4-4-4-12 hexadecimal "
                + "digits, then a major, then a minor, each 0 to 65535"
        ),
        (
            ["add", "--id", "x", "--beacon", "E2C56DB5DFFB48D2B060D0F5A71096E0"],
            "--beacon E2C56DB5DFFB48D2B060D0F5A71096E0: expected UUID[:MAJOR[:MINOR]]: the proximity UUID as "
                + "8-4-4-4-12 hexadecimal digits, then a major, then a minor, each 0 to 65535"
        ),
        (
            ["add", "--beacon", uuid],
            "give the beacon region's id: --id ID --beacon \(uuid)"
        ),
        (
            ["add", "--id", "x", "--beacon", uuid, "--lat", "1", "--radius", "5"],
            "--beacon makes a beacon region, which has no area: leave out --lat, --radius"
        ),
        (
            ["add", "x", "--lat", "1", "--lon", "2", "--radius", "5", "--ranging"],
            "--ranging is for a beacon region (--beacon UUID): a circle is not ranged"
        ),
        (
            ["add", "x", "--id", "y", "--beacon", uuid],
            "the ID \"x\" and --id \"y\" differ: give the id once"
        ),
        (
            ["add", "--geojson", "-", "--beacon", uuid, "--no-ranging"],
            "--geojson takes the regions with their ids and properties from the GeoJSON; leave out --beacon, "
                + "--no-ranging"
        ),
        (
            ["add", "--id", "bad\nid", "--beacon", uuid],
            "region \"bad\\nid\": the id must not contain control characters, such as a line break; "
                + "{FILE} not changed"
        ),
    ]

    @Test("a beacon region that cannot be made: one line naming the option, exit 2, the file unchanged")
    func refused() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(["add", "kept", "--beacon", Self.uuid]).status == 0)
        let before = workspace.bytes
        for (arguments, message) in Self.refusals {
            let result = try workspace.run(arguments, input: "")
            #expect(result.status == 2, "\(arguments)")
            let expected = message.replacing("{FILE}", with: workspace.regionFile)
            #expect(result.stderrLines == ["waymark regions add: \(expected)"], "\(arguments)")
            #expect(workspace.bytes == before, "\(arguments)")
        }
    }

    @Test("a beacon feature from stdin: added; a bad one: its position and member, exit 2")
    func addGeoJSON() throws {
        let workspace = try Workspace()
        let good = try workspace.run(
            ["add", "--geojson", "-"],
            input: #"{"type": "Feature", "geometry": null, "properties": {"id": "dock", "ranging": true, "#
                + #""beacon": {"uuid": "\#(Self.uuid)", "major": 4, "minor": 2}}}"#
        )
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try Self.rows(workspace) == [["dock", "beacon", "\(Self.uuid):4:2", "entry+exit+ranging"]])
        let before = workspace.bytes
        let bad = try workspace.run(
            ["add", "--geojson", "-"],
            input: #"{"type": "Feature", "geometry": null, "properties": {"id": "x", "#
                + #""beacon": {"uuid": "\#(Self.uuid)", "minor": 2}}}"#
        )
        #expect(bad.status == 2)
        #expect(
            bad.stderrLines == [
                "waymark regions add: stdin:1:133: properties.beacon.minor = 2: needs a major: a beacon region is a "
                    + "UUID, or a UUID and a major, or all three; \(workspace.regionFile) not changed"
            ]
        )
        #expect(workspace.bytes == before)
    }

    @Test("max_regions counts beacon regions: a new one over it is refused; the agent monitors areas first")
    func maxRegions() throws {
        let workspace = try Workspace("max_regions = 2")
        #expect(try workspace.run(["add", "b", "--beacon", Self.uuid]).status == 0)
        #expect(try workspace.run(["add", "c", "--lat", "1", "--lon", "2", "--radius", "3"]).status == 0)
        let before = workspace.bytes
        let third = try workspace.run(["add", "d", "--beacon", "\(Self.uuid):1"])
        #expect(third.status == 2)
        #expect(
            third.stderrLines == [
                "waymark regions add: region \"d\": more than max_regions = 2: the file holds 2 regions; "
                    + "\(workspace.regionFile) not changed"
            ]
        )
        #expect(workspace.bytes == before)
        // A file written by hand over the limit: the areas are monitored, the beacon region past them is not.
        let beacon = RegionFile.Entry.beacon(BeaconRegion(id: "b", constraint: BeaconConstraint(uuid: Self.beaconUUID)))
        let circle = { (id: String) in
            RegionFile.Entry.geographic(
                Region(id: id, shape: .circle(center: Coordinate(latitude: 1, longitude: 2), radius: 3))
            )
        }
        try Self.write(RegionFile.encode(entries: [beacon, circle("c1"), circle("c2")]), to: workspace.regionFile)
        try Self.write(Array("waymark region states 1\nb\n".utf8), to: workspace.directory.path + "/regions.state")
        let state = try workspace.run(["state"])
        #expect(state.status == 0, "\(state.stderr)")
        #expect(
            state.stdoutLines == [
                "b   not monitored: more than max_regions = 2",
                "c1  outside",
                "c2  outside",
            ]
        )
    }

    @Test("state: a beacon region's saved state, as the agent saves beacon regions' with the others")
    func state() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(["add", "t", "--beacon", Self.uuid]).status == 0)
        #expect(try workspace.run(["add", "u", "--beacon", "\(Self.uuid):1"]).status == 0)
        #expect(try workspace.run(["state"]).stdoutLines == ["t  unknown", "u  unknown"])
        try Self.write(Array("waymark region states 1\nu\n".utf8), to: workspace.directory.path + "/regions.state")
        #expect(try workspace.run(["state"]).stdoutLines == ["t  outside", "u  inside"])
        #expect(try workspace.run(["state", "u"]).stdoutLines == ["u  inside"])
    }
}

extension RegionsBeaconCommandTests {
    /// Writes `bytes` to the file at `path`, replacing it.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestServerError("cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw TestServerError("\(path): \(written) of \(bytes.count) bytes written")
        }
    }
}

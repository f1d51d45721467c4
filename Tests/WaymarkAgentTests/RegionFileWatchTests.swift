import Testing

@testable import WaymarkAgent

@Suite("The region file's watch: a changed file is loaded once it has settled")
struct RegionFileWatchTests {
    typealias Look = Result<RegionSource.Version, RegionSource.Unreadable>

    static func version(_ size: Int64, modified: Int64 = 1) -> Look {
        .success(RegionSource.Version(device: 1, inode: 7, size: size, modified: modified))
    }
    static let missing = Look.failure(.init(reason: "No such file or directory", missing: true))
    static let denied = Look.failure(.init(reason: "Permission denied", missing: false))

    @Test(
        "each sequence of looks gives these actions",
        arguments: [
            ("the first look loads at once", [version(100)], [RegionFileWatch.Action.load]),
            (
                "an unchanged file is not loaded again", [version(100), version(100), version(100)],
                [.load, .nothing, .nothing]
            ),
            (
                "a file written in place (empty, half, whole) is loaded whole, once",
                [
                    version(100), version(0, modified: 2), version(50, modified: 3), version(120, modified: 4),
                    version(120, modified: 4), version(120, modified: 4),
                ],
                [.load, .nothing, .nothing, .nothing, .load, .nothing]
            ),
            (
                "a change that goes back before it settles loads nothing",
                [version(100), version(0, modified: 2), version(100)],
                [.load, .nothing, .nothing]
            ),
            (
                "a missing file is said once; created, it is loaded once settled",
                [missing, missing, version(100), version(100), version(100)],
                [.missing(reason: "No such file or directory"), .nothing, .nothing, .load, .nothing]
            ),
            (
                "an unreadable file is said once per reason, and again after it was readable",
                [version(100), denied, denied, missing, version(100), version(100), denied],
                [
                    .load, .unreadable(reason: "Permission denied"), .nothing,
                    .missing(reason: "No such file or directory"), .nothing, .load,
                    .unreadable(reason: "Permission denied"),
                ]
            ),
        ]
    )
    func looks(_ name: String, _ looks: [Look], _ expected: [RegionFileWatch.Action]) {
        var watch = RegionFileWatch()
        #expect(looks.map { watch.look($0) } == expected, "\(name)")
    }
}

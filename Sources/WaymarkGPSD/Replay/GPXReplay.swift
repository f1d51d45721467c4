import WaymarkCore

/// Replays the points of a GPX file as locations at the file's times, the way Xcode simulates a
/// location from GPX. Unusable points are reported first, as rejections.
public final class GPXReplay: ReplaySource {
    private var updates: [SourceUpdate] = []
    private var index = 0

    public init(_ file: GPXFile) {
        var clock = ReplayClock(start: file.locations.first?.time ?? Timestamp(seconds: 0))
        updates = [clock.update(.connected(server: ReplayClock.server, release: nil))]
        updates += file.rejected.map { _ in clock.update(.rejected(.invalidPoint)) }
        updates.reserveCapacity(updates.count + file.locations.count)
        for location in file.locations {
            clock.observe(location.time)
            updates.append(clock.update(.location(location)))
        }
    }

    public func next() -> SourceUpdate? {
        guard index < updates.count else { return nil }
        defer { index += 1 }
        return updates[index]
    }
}

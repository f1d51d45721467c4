import WaymarkCore
import WaymarkGPX

/// Replays the points of a GPX file as locations at the file's times, the way Xcode simulates a
/// location from GPX. Unusable points are reported first, as rejections counted by their code (`no_time`,
/// `bad_fix`, …), and ``skippedPoints(fileName:limit:)`` says which they were and what to do.
public final class GPXReplay: ReplaySource {
    /// The points that did not become locations, in document order.
    public let rejected: [GPXRejection]
    /// Whether points without `time` were timed at a route speed.
    public let isTimedAtRouteSpeed: Bool
    private var updates: [SourceUpdate] = []
    private var index = 0

    public init(_ file: GPXFile, isTimedAtRouteSpeed: Bool = false) {
        rejected = file.rejected
        self.isTimedAtRouteSpeed = isTimedAtRouteSpeed
        var clock = ReplayClock(start: file.locations.first?.time ?? Timestamp(seconds: 0))
        updates = [clock.update(.connected(server: ReplayClock.server, release: nil))]
        updates += file.rejected.map { clock.update(.rejected($0.code)) }
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

    /// What a person needs to know about the points skipped: how many, by code; the first `limit` of them with
    /// their lines (`route.gpx:12: no time`); and, last, one line on what to do. Empty when none was skipped.
    public func skippedPoints(fileName: String, limit: Int = 5) -> [String] {
        guard !rejected.isEmpty else { return [] }
        var counts: [(code: Rejection, count: Int)] = []
        for rejection in rejected {
            if let position = counts.firstIndex(where: { $0.code == rejection.code }) {
                counts[position].count += 1
            } else {
                counts.append((rejection.code, 1))
            }
        }
        let byCode = counts.map { "\($0.code)=\($0.count)" }.joined(separator: " ")
        let were = rejected.count == 1 ? "was" : "were"
        var lines = ["\(fileName): \(rejected.count) of its points \(were) skipped: \(byCode)"]
        lines += rejected.prefix(limit).map { "\(fileName):\($0.line): \($0.reason)" }
        if rejected.count > limit {
            lines.append("\(fileName): and \(rejected.count - limit) more")
        }
        let untimed = counts.first { $0.code == .noTime }?.count ?? 0
        if untimed > 0 && !isTimedAtRouteSpeed {
            lines.append(
                "\(fileName): \(untimed) \(untimed == 1 ? "point has" : "points have") no <time>: to replay a planned "
                    + "route, give a constant speed "
                    + "with --route-speed KMH (such as --route-speed 50), and the times follow from the distances"
            )
        } else {
            lines.append("\(fileName): mend or remove the points listed to replay them")
        }
        return lines
    }
}

import WaymarkCore

extension GPXWriter {
    /// Splits a trip's points into the segments of one track, at the instants the receiver lost its fix.
    ///
    /// GPX starts a new `<trkseg>` "for each continuous span of track data": a gap at instant `g` ends the
    /// segment of the points at or before `g`, and the next point after `g` starts a new one. Gaps before the
    /// first point, after the last, or several between the same two points make no empty segment.
    ///
    /// - Parameters:
    ///   - points: the trip's points, in time order.
    ///   - gaps: when the fix was lost (the `time` of a `location_unknown`, `gpsd_unavailable` or `no_device`
    ///     error event), in any order.
    /// - Returns: the points in the same order, cut into non-empty segments; `[]` for no points.
    public static func segments(_ points: [TrackPoint], splitAt gaps: [Timestamp]) -> [[TrackPoint]] {
        guard !points.isEmpty else { return [] }
        let gaps = gaps.sorted()
        var nextGap = 0
        var segments: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        for point in points {
            var crossesGap = false
            while nextGap < gaps.count && gaps[nextGap] < point.time {
                crossesGap = true
                nextGap += 1
            }
            if crossesGap && !current.isEmpty {
                segments.append(current)
                current = []
            }
            current.append(point)
        }
        segments.append(current)
        return segments
    }
}

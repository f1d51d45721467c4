import WaymarkFormats

/// A trip's start and end in a zone's local time, for `waymark trips list --local`.
public struct LocalTripTime: Hashable, Sendable {
    /// ISO 8601 with the offset, `2010-04-11T18:57:44.000+02:00`, or UTC's `…Z`; nil when the trip's
    /// `start_time` is missing.
    public var start: String?
    /// ISO 8601 with the offset, as ``start``.
    public var end: String
    /// The IANA zone, `Europe/Berlin`; `UTC` when the trip's times are left in UTC.
    public var zone: String

    /// The trip event's JSON line `line` with `local_start_time`, `local_end_time` and `local_timezone` added
    /// as its last members.
    public func appended(to line: String) -> String {
        guard line.hasSuffix("}") else { return line }
        let members = [("local_start_time", start), ("local_end_time", end), ("local_timezone", zone)]
            .compactMap { key, value in value.map { "\"\(key)\":\(JSONText.quoted($0))" } }
        return line.dropLast() + "," + members.joined(separator: ",") + "}"
    }
}

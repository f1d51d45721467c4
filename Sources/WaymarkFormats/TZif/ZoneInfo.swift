/// A time zone as a TZif file (RFC 8536) describes it: its transitions, its local time types, and the POSIX TZ
/// string of its footer for the instants after the last transition.
///
/// Pure data: ``init(tzif:name:)`` reads the bytes of a file such as `/usr/share/zoneinfo/Europe/Berlin`, which
/// the caller reads. Leap-second records (the `right/` zones) are checked and otherwise ignored: instants are
/// POSIX seconds, as the events carry them.
public struct ZoneInfo: Hashable, Sendable {
    /// The zone's name, `Europe/Berlin`, for messages.
    public var name: String
    /// Seconds since 1970-01-01T00:00:00Z, ascending, at which local time changes.
    let transitions: [Int64]
    /// The index in ``types`` of the local time that starts at each transition.
    let transitionTypes: [Int]
    /// The local time types; never empty. The first one holds before the first transition.
    let types: [LocalTimeType]
    /// The rule after the last transition; nil when the file has none (version 1) or an empty one.
    public var footer: POSIXTimeZone?

    init(
        name: String,
        transitions: [Int64],
        transitionTypes: [Int],
        types: [LocalTimeType],
        footer: POSIXTimeZone?
    ) {
        precondition(!types.isEmpty && transitions.count == transitionTypes.count)
        self.name = name
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.footer = footer
    }

    /// Local time at `seconds` since 1970-01-01T00:00:00Z: the offset from UTC, daylight saving or not, and the
    /// abbreviation.
    ///
    /// Before the first transition, the first local time type; from the last transition on, the footer's
    /// rule when there is one (RFC 8536, section 3.2), else the last transition's type.
    public func localTime(at seconds: Int64) -> LocalTimeType {
        guard let last = transitions.last else { return footer?.localTime(at: seconds) ?? types[0] }
        if seconds >= last, let footer { return footer.localTime(at: seconds) }
        guard seconds >= transitions[0] else { return types[0] }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypes[low]]
    }
}

/// The agent's health alarms (docs/operations.md, "Health alarms"): conditions a person should look at, each
/// raised once when it starts and cleared once when it ends.
///
/// Pure: the agent measures (the time of the last usable fix, the system clock against GPS time, the free
/// space, the sinks' oldest unsent event) and passes `now`; the monitor decides what starts and what ends.
public struct HealthMonitor: Sendable {
    public var settings: HealthSettings
    /// The alarms open now, by kind and subject.
    public private(set) var open: [Alarm.Key: Alarm] = [:]
    /// How many times each kind was raised since the start.
    public private(set) var raised: [Alarm.Kind: Int] = [:]
    /// Since when the receiver, expected to give fixes, gave no usable one: its last usable fix, or when it
    /// came to be expected; nil while it is not expected to (no gpsd, no device, a stationary pause).
    private var silentSince: MonotonicInstant?
    /// When the system clock was last compared with GPS time.
    private var clockCheckedAt: MonotonicInstant?
    /// The last offset of the system clock from GPS time, positive when the system clock is ahead.
    public private(set) var clockOffset: Duration?
    /// Checks in a row that found the clock off: the alarm needs two, so that a board whose time service sets
    /// the clock a minute after boot raises nothing.
    private var skewedChecks = 0

    public init(settings: HealthSettings = .init()) { self.settings = settings }

    /// What the receiver did at `now`: whether it is expected to give fixes (gpsd connected, a device, not in a
    /// stationary pause) and whether a usable fix came (a current fix with a position, however accurate: the
    /// receiver works).
    public mutating func receiver(expected: Bool, usableFix: Bool, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .receiverSilent)
        guard expected else {
            silentSince = nil
            return clear(key, because: "the receiver is no longer watched")
        }
        if usableFix {
            // Counted from here: a receiver that goes quiet after this fix, with no update at all, still raises.
            silentSince = now
            return clear(key, because: "a usable fix came")
        }
        if silentSince == nil { silentSince = now }
        return advance(to: now)
    }

    /// Time passes: `receiver_silent` starts once no usable fix came for ``HealthSettings/noFixAlarm``.
    public mutating func advance(to now: MonotonicInstant) -> [AlarmChange] {
        guard let since = silentSince, now - since >= settings.noFixAlarm else { return [] }
        let message =
            "no usable fix for \(Self.describe(settings.noFixAlarm)) although gpsd and the receiver are there: "
            + "check the antenna, its cable and its view of the sky"
        return raise(Alarm.Key(kind: .receiverSilent), message, since: since)
    }

    /// When ``advance(to:)`` would next raise an alarm.
    public var nextDeadline: MonotonicInstant? {
        guard let since = silentSince, open[Alarm.Key(kind: .receiverSilent)] == nil else { return nil }
        return since + settings.noFixAlarm
    }

    /// The system clock against GPS time at a current fix, once GPS time is trusted: compared at the first
    /// call and then every ``HealthSettings/clockCheckInterval``; raised when two checks in a row find it off,
    /// cleared by one that finds it right.
    public mutating func clock(offset: Duration, now: MonotonicInstant) -> [AlarmChange] {
        if let checked = clockCheckedAt, now - checked < settings.clockCheckInterval { return [] }
        clockCheckedAt = now
        clockOffset = offset
        let key = Alarm.Key(kind: .clockSkew)
        let magnitude = offset < .zero ? .zero - offset : offset
        guard magnitude > settings.maxClockSkew else {
            skewedChecks = 0
            return clear(key, because: "the system clock is within \(Self.describe(settings.maxClockSkew)) of GPS time")
        }
        skewedChecks += 1
        guard skewedChecks >= 2 else { return [] }
        let direction = offset > .zero ? "ahead of" : "behind"
        let message =
            "the system clock is \(Self.describe(magnitude)) \(direction) GPS time: "
            + "the board has no time synchronization (check its NTP or gpsd's time service)"
        return raise(key, message, since: now)
    }

    /// The free space of a directory the agent writes (`setting` names it, `path` is where it is); nil when
    /// it could not be measured, which changes nothing.
    public mutating func disk(
        setting: String,
        path: String,
        freeBytes: Int64?,
        now: MonotonicInstant
    ) -> [AlarmChange] {
        guard let freeBytes else { return [] }
        let key = Alarm.Key(kind: .diskLow, subject: path)
        if freeBytes < settings.minFreeBytes {
            let message =
                "\(setting) \(path) has \(Self.describe(bytes: freeBytes)) free, less than [health] min_free_bytes "
                + "(\(Self.describe(bytes: settings.minFreeBytes))): free space before the spool or the logs run out"
            return raise(key, message, since: now)
        }
        // Cleared only with an eighth more than the threshold: the spool's own writes do not make it flap.
        guard freeBytes >= settings.minFreeBytes + settings.minFreeBytes / 8 else { return [] }
        return clear(key, because: "\(Self.describe(bytes: freeBytes)) free")
    }

    /// A sink that has not taken the events committed and released to it for `duration` (nil: it has them
    /// all). Events held back in a deferral window do not count: they wait on purpose.
    public mutating func sink(_ name: String, behindFor duration: Duration?, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .sinkStalled, subject: name)
        guard let duration, duration > settings.maxUnsentAge else {
            return clear(key, because: "the \(name) sink caught up")
        }
        let message =
            "the \(name) sink has not delivered its events for \(Self.describe(duration)), longer than "
            + "[health] max_unsent_age (\(Self.describe(settings.maxUnsentAge)))"
        return raise(key, message, since: now + (.zero - duration))
    }

    /// A network sink whose server refuses the sink's settings rather than its events (`refusal`, the server's
    /// answer; nil once it confirms again): Traccar's 400 for a device it does not know, a 401 for a wrong
    /// password. Raised at once, not after ``HealthSettings/maxUnsentAge``: nothing gets through until a person
    /// fixes the configuration or the server.
    public mutating func sink(_ name: String, refusal: String?, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .sinkRefused, subject: name)
        guard let refusal else { return clear(key, because: "the \(name) sink's server takes its events again") }
        return raise(key, "the \(name) sink's server refuses its settings: \(refusal)", since: now)
    }

    /// A network sink whose `max_bytes_per_day` is spent (`message` says so; nil once its locations go again).
    public mutating func sink(_ name: String, overBudget message: String?, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .sinkOverBudget, subject: name)
        guard let message else { return clear(key, because: "the \(name) sink's daily budget is whole again") }
        return raise(key, message, since: now)
    }

    /// The region file `[regions] file` names now (`path`; nil: none), as the agent starts or reloads: the
    /// alarm of a file no longer named ends.
    public mutating func regionFile(named path: String?, now: MonotonicInstant) -> [AlarmChange] {
        let others = open.keys.filter { $0.kind == .regionFileRejected && $0.subject != path }
        return others.flatMap { clear($0, because: "[regions] file no longer names it") }
    }

    /// The region file at `path` was read: rejected (`rejection` says why and what is monitored instead), or
    /// loaded (nil). Raised at once: the board does not monitor the regions it was given until a person fixes
    /// the file; cleared when a version of it loads.
    public mutating func regionFile(_ path: String, rejection: String?, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .regionFileRejected, subject: path)
        guard let rejection else { return clear(key, because: "the region file loaded") }
        return raise(key, rejection, since: now)
    }

    /// The beacon source's `part` (`scanning`, `advertising`) failed (`failure` says how), or works (nil). Raised
    /// at once, as the source says a cause once and retries: cleared when discovery runs or BlueZ registered the
    /// advertisement again (or the agent no longer wants to advertise).
    public mutating func beaconSource(_ part: String, failure: String?, now: MonotonicInstant) -> [AlarmChange] {
        let key = Alarm.Key(kind: .beaconSourceFailed, subject: part)
        guard let failure else { return clear(key, because: "beacon \(part) works again") }
        return raise(key, "beacon \(part): \(failure)", since: now)
    }

    private mutating func raise(_ key: Alarm.Key, _ message: String, since: MonotonicInstant) -> [AlarmChange] {
        guard open[key] == nil else { return [] }
        let alarm = Alarm(key: key, message: message, since: since)
        open[key] = alarm
        raised[key.kind, default: 0] += 1
        return [.raised(alarm)]
    }

    private mutating func clear(_ key: Alarm.Key, because reason: String) -> [AlarmChange] {
        guard let alarm = open.removeValue(forKey: key) else { return [] }
        return [.cleared(alarm, reason: reason)]
    }

    /// A duration for a person: "2.5 s", "12 min", "3.2 h".
    static func describe(_ duration: Duration) -> String {
        let seconds = duration.secondsValue
        if seconds < 60 { return "\((seconds * 10).rounded() / 10) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded())) min" }
        return "\((seconds / 360).rounded() / 10) h"
    }

    /// A size for a person, in the largest binary unit it reaches (the configuration's units: KB is 1024 bytes),
    /// with one decimal below ten so that a small size never reads as none: "512 bytes", "324 KB", "1.5 MB".
    static func describe(bytes: Int64) -> String {
        let units: [(name: String, shift: Int64)] = [("TB", 40), ("GB", 30), ("MB", 20), ("KB", 10)]
        guard let unit = units.first(where: { bytes >= 1 << $0.shift }) else { return "\(max(bytes, 0)) bytes" }
        let tenths = Int64((Double(bytes) * 10 / Double(Int64(1) << unit.shift)).rounded())
        if tenths >= 100 || tenths % 10 == 0 { return "\((tenths + 5) / 10) \(unit.name)" }
        return "\(tenths / 10).\(tenths % 10) \(unit.name)"
    }
}

/// `[health]`: when the alarms start.
public struct HealthSettings: Hashable, Sendable {
    /// `receiver_silent` after this long without a usable fix while the receiver is watched (`no_fix_alarm`).
    public var noFixAlarm: Duration
    /// `clock_skew` when the system clock is further than this from GPS time (`max_clock_skew`).
    public var maxClockSkew: Duration
    /// `disk_low` when `state_dir` or `log_dir` has less free space than this (`min_free_bytes`).
    public var minFreeBytes: Int64
    /// `sink_stalled` when a sink's oldest unsent event is older than this (`max_unsent_age`).
    public var maxUnsentAge: Duration
    /// How often the system clock is compared with GPS time.
    public var clockCheckInterval: Duration

    public init(
        noFixAlarm: Duration = .seconds(600),
        maxClockSkew: Duration = .seconds(5),
        minFreeBytes: Int64 = 64 << 20,
        maxUnsentAge: Duration = .seconds(3600),
        clockCheckInterval: Duration = .seconds(300)
    ) {
        self.noFixAlarm = noFixAlarm
        self.maxClockSkew = maxClockSkew
        self.minFreeBytes = minFreeBytes
        self.maxUnsentAge = maxUnsentAge
        self.clockCheckInterval = clockCheckInterval
    }
}

/// A condition that needs a person, open from `since`.
public struct Alarm: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case receiverSilent = "receiver_silent"
        case clockSkew = "clock_skew"
        case diskLow = "disk_low"
        case sinkStalled = "sink_stalled"
        case sinkRefused = "sink_refused"
        case sinkOverBudget = "sink_over_budget"
        case regionFileRejected = "region_file_rejected"
        /// The beacon source cannot scan or advertise (subject `scanning` or `advertising`).
        case beaconSourceFailed = "beacon_source_failed"

        /// The code of the `error` event that raises it.
        public var code: ErrorCode { ErrorCode(rawValue) }
    }

    /// An alarm is one per kind, or per sink, directory or region file.
    public struct Key: Hashable, Sendable {
        public var kind: Kind
        /// The sink, the directory or the region file it is about; nil for the receiver and the clock.
        public var subject: String?

        public init(kind: Kind, subject: String? = nil) {
            self.kind = kind
            self.subject = subject
        }
    }

    public var key: Key
    public var message: String
    /// When the condition started, on the monotonic clock.
    public var since: MonotonicInstant
}

/// An alarm that starts or ends.
public enum AlarmChange: Hashable, Sendable {
    case raised(Alarm)
    case cleared(Alarm, reason: String)
}

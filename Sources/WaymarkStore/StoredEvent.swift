import WaymarkCore

/// One event as the spool keeps it: its number, what kind it is, its time, and its JSON line (without the
/// newline and without `device`, which the sinks add where they need it).
public struct StoredEvent: Hashable, Sendable {
    public var seq: UInt64
    public var kind: Kind
    public var time: Timestamp
    public var line: [UInt8]

    public init(seq: UInt64, kind: Kind, time: Timestamp, line: [UInt8]) {
        self.seq = seq
        self.kind = kind
        self.time = time
        self.line = line
    }

    /// The event's `type`, as a small number on disk. Kinds from `region` on are kept longest when the spool
    /// is full (``isProtected``).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let code: Int

        public init(code: Int) { self.code = code }

        public static let location = Kind(code: 1)
        public static let heading = Kind(code: 2)
        public static let status = Kind(code: 3)
        public static let error = Kind(code: 4)
        public static let regionState = Kind(code: 5)
        public static let alarmCleared = Kind(code: 6)
        public static let beacon = Kind(code: 7)
        public static let command = Kind(code: 8)
        public static let beaconAdvertising = Kind(code: 9)
        public static let region = Kind(code: 10)
        public static let pause = Kind(code: 11)
        public static let resume = Kind(code: 12)
        public static let trip = Kind(code: 13)
        public static let deferredFinished = Kind(code: 14)
        public static let driving = Kind(code: 15)

        private static let names: [Int: String] = [
            1: "location", 2: "heading", 3: "status", 4: "error", 5: "region_state", 6: "alarm_cleared", 7: "beacon",
            8: "command", 9: "beacon_advertising",
            10: "region",
            11: "pause",
            12: "resume", 13: "trip", 14: "deferred_finished", 15: "driving",
        ]

        /// The kind of `event`.
        public init(_ event: Event) {
            switch event.kind {
            case .location: self = .location
            case .heading: self = .heading
            case .status: self = .status
            case .error: self = .error
            case .regionState: self = .regionState
            case .region, .beaconRegion: self = .region
            case .beacon: self = .beacon
            case .pause: self = .pause
            case .resume: self = .resume
            case .trip: self = .trip
            case .deferredFinished: self = .deferredFinished
            case .alarmCleared: self = .alarmCleared
            case .command: self = .command
            case .beaconAdvertising: self = .beaconAdvertising
            case .driving: self = .driving
            }
        }

        /// The kind named by an event's `type`, or nil.
        public init?(type: String) {
            guard let code = Self.names.first(where: { $0.value == type })?.key else { return nil }
            self.code = code
        }

        /// Events a fleet cannot do without: `region`, `pause`, `resume`, `trip`, `deferred_finished` and `driving`
        /// are dropped only when nothing else is left to drop.
        public var isProtected: Bool { code >= 10 }

        /// The event's `type`.
        public var description: String { Self.names[code] ?? "kind \(code)" }
    }
}

extension StoredEvent {
    /// `event`, encoded by `encoder`, as the spool keeps it.
    public init(_ event: Event, encoder: EventEncoder) {
        self.init(seq: event.seq, kind: Kind(event), time: event.time, line: Self.line(event, encoder: encoder))
    }

    /// The line of `event` as the spool keeps it: JSON without a line break.
    public static func line(_ event: Event, encoder: EventEncoder) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        encoder.encode(event, into: &line)
        line.removeLast()
        return line
    }
}

import WaymarkCore

/// What the core knows of the board as an iBeacon: the policy's wish, and what BlueZ did with it.
struct AdvertisingState: Sendable {
    var policy: AdvertisingPolicy
    let beacon: BeaconID
    /// Whether BlueZ has the advertisement registered now, and since when.
    var isAdvertising = false
    var since: MonotonicInstant?
    /// Since the start: registrations, stops and failures (the metrics).
    var starts = 0
    var stops = 0
    var failures = 0
    /// The last failure's message, until advertising works again (`waymark status`).
    var lastFailure: String?

    init(rule: AdvertisingPolicy.Rule, beacon: BeaconID) {
        policy = AdvertisingPolicy(rule: rule)
        self.beacon = beacon
    }
}

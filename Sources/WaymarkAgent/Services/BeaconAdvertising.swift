import WaymarkBluetooth
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// Starts the board's iBeacon advertiser: a ``BlueZAdvertiser`` on a thread of its own (`advertise`), what it
/// does as a stream that ends once it has stopped (after its last unregistration).
struct BeaconAdvertising: Sendable {
    let advertiser: BlueZAdvertiser
    let events: AsyncStream<AdvertiserEvent>
    /// The policy's rule and the beacon, for the core.
    let rule: AdvertisingPolicy.Rule
    let beacon: BeaconID

    /// The advertiser of `[beacons.advertise]`; nil unless it is enabled.
    static func start(_ settings: BeaconsSettings) -> BeaconAdvertising? {
        guard let configuration = settings.advertise.advertiser(settings) else { return nil }
        let advertiser = BlueZAdvertiser(configuration: configuration) { SystemClocks.monotonic() }
        let (events, continuation) = AsyncStream.makeStream(of: AdvertiserEvent.self)
        DedicatedThread.start(name: "advertise") {
            advertiser.run { continuation.yield($0) }
            continuation.finish()
        }
        return BeaconAdvertising(
            advertiser: advertiser,
            events: events,
            rule: settings.advertise.rule,
            beacon: configuration.beacon
        )
    }
}

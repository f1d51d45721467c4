import WaymarkCore

/// What ``BlueZAdvertiser`` tells the agent.
public enum AdvertiserEvent: Hashable, Sendable {
    /// BlueZ registered the advertisement (true) or it is no longer registered (false). A stop the agent asked
    /// for has no reason; one that BlueZ made has its own: `released` (bluetoothd called `Release`),
    /// `adapter_off`, `bluetoothd_gone`, `adapter_removed`, `connection_lost`.
    case advertising(Bool, reason: String?)
    /// It cannot advertise: no bus, no bluetoothd, no adapter, an adapter off, a refusal. Said once per cause,
    /// and again each time advertising is wanted again; the advertiser retries with backoff (a refusal too: an
    /// instance may come free).
    case failure(BeaconSourceFailure)
}

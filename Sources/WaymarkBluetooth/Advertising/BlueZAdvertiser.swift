import Synchronization
import WaymarkCore
import WaymarkSystem

/// The board as an iBeacon: an `org.bluez.LEAdvertisement1` object registered with BlueZ's
/// `LEAdvertisingManager1`, on the thread that calls ``run(emit:)``.
///
/// It advertises while ``setAdvertising(_:)`` says so, registers again when bluetoothd restarts or the adapter
/// comes back, answers `Release`, and unregisters at ``stop()``. Refusals and a missing bus, bluetoothd or
/// adapter are each said once (``AdvertiserEvent/failure(_:)``) and retried with backoff. It has a connection of
/// its own: scanning and advertising go on together, each on its thread.
public final class BlueZAdvertiser: Sendable {
    public let configuration: AdvertiserConfiguration
    private let clock: @Sendable () -> MonotonicInstant
    private let control = Mutex(Control())
    private let wake = WakeSignal()

    private struct Control {
        var stopped = false
        var wanted = false
    }

    /// - Parameter clock: the monotonic clock.
    public init(configuration: AdvertiserConfiguration, clock: @escaping @Sendable () -> MonotonicInstant) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Whether the board should advertise now (the agent's ``AdvertisingPolicy``).
    public func setAdvertising(_ wanted: Bool) {
        let changed = control.withLock { control in
            defer { control.wanted = wanted }
            return control.wanted != wanted
        }
        if changed { wake.signal() }
    }

    /// Ends ``run(emit:)``: the advertisement is unregistered and the connection closed.
    public func stop() {
        control.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Advertises as told until ``stop()``, handing `emit` what happens, as it happens.
    public func run(emit: (AdvertiserEvent) -> Void) {
        let wakeFD = wake.descriptor
        guard wakeFD >= 0 else {
            let message = wake.failure?.description ?? "cannot make an eventfd"
            emit(.failure(BeaconSourceFailure(code: .bluetoothUnavailable, message: message)))
            return
        }
        var session = AdvertiseSession(configuration: configuration, now: clock())
        while true {
            let (stopped, wanted) = control.withLock { ($0.stopped, $0.wanted) }
            if stopped { break }
            let deadline = session.step(wanted: wanted, now: clock(), emit: emit)
            session.wait(wakeFD: wakeFD, until: deadline, clock: clock, emit: emit)
        }
        session.close(now: clock(), emit: emit)
    }
}

import CBlueZ
import Synchronization
import WaymarkCore
import WaymarkSystem

/// The live beacon source: BlueZ over D-Bus, on the thread that calls ``run(emit:)``.
///
/// It finds the adapter (`[beacons] adapter`, or the first powered one), sets BlueZ's discovery filter (LE,
/// duplicates reported), starts discovery, and turns each advertisement of a device with Apple manufacturer
/// data into a sighting or a counted rejection. A missing bus, bluetoothd gone, no adapter, an adapter off and a
/// refused discovery are each said once (``BeaconSourceEvent/failure(_:)``) and retried with backoff; a lost
/// connection is made again. While the agent is paused (``setContinuous(_:)`` false) it scans on its duty cycle.
public final class BlueZScanner: Sendable {
    public let configuration: BlueZConfiguration
    private let clock: @Sendable () -> (monotonic: MonotonicInstant, wallClock: Timestamp)
    private let control = Mutex(Control())
    /// Wakes a waiting ``run(emit:)`` for a change of ``setContinuous(_:)`` or ``stop()``.
    private let wake = WakeSignal()
    private var wakeFD: Int32 { wake.descriptor }

    private struct Control {
        var stopped = false
        var continuous = true
    }

    /// - Parameter clock: the monotonic and the wall clock, read when an advertisement arrives.
    public init(
        configuration: BlueZConfiguration,
        clock: @escaping @Sendable () -> (monotonic: MonotonicInstant, wallClock: Timestamp)
    ) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Scans all the time (true: the agent is tracking) or on the duty cycle (false: paused).
    public func setContinuous(_ continuous: Bool) {
        let changed = control.withLock { control in
            defer { control.continuous = continuous }
            return control.continuous != continuous
        }
        if changed { wake.signal() }
    }

    /// Ends ``run(emit:)``: discovery is stopped and the connection closed.
    public func stop() {
        control.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Scans until ``stop()``, handing `emit` the updates in batches (at most one per
    /// ``BlueZConfiguration/batchInterval`` while only advertisements come; a change of state at once).
    public func run(emit: ([BeaconUpdate]) -> Void) {
        guard wakeFD >= 0 else {
            // Out of file descriptors: nothing could wake a wait, so no scanning at all.
            let failure = BeaconSourceFailure(
                code: .bluetoothUnavailable,
                message: wake.failure?.description ?? "cannot make an eventfd"
            )
            emit([update(.failure(failure))])
            return
        }
        var session = ScanSession(configuration: configuration, now: clock().monotonic)
        var pending: [BeaconUpdate] = []
        var events: [BeaconSourceEvent] = []
        /// The events of one step or one wait, stamped with one reading of the clocks: they arrived together.
        func take() {
            guard !events.isEmpty else { return }
            let (monotonic, wallClock) = clock()
            for event in events { pending.append(BeaconUpdate(event, monotonic: monotonic, wallClock: wallClock)) }
            events.removeAll(keepingCapacity: true)
        }
        var lastEmit = clock().monotonic
        var lastWait: MonotonicInstant?
        while true {
            // The wait clears the wake-up it returned for; one that came since is still there, and ends the next.
            let (stopped, continuous) = control.withLock { ($0.stopped, $0.continuous) }
            if stopped { break }
            var deadline = session.step(continuous: continuous, now: clock().monotonic) { events.append($0) }
            take()
            if !pending.isEmpty { deadline = min(deadline, lastEmit + configuration.batchInterval) }
            if let gathered = lastWait.map({ $0 + configuration.gatherInterval }), gathered < deadline {
                ScanSession.pause(wakeFD: wakeFD, until: gathered, clock: { clock().monotonic })
            }
            lastWait = clock().monotonic
            session.wait(wakeFD: wakeFD, until: deadline, clock: { clock().monotonic }, emit: { events.append($0) })
            take()
            let now = clock().monotonic
            if !pending.isEmpty, now - lastEmit >= configuration.batchInterval || session.changedState {
                emit(pending)
                pending.removeAll(keepingCapacity: true)
                lastEmit = now
                session.changedState = false
            }
        }
        session.close { events.append($0) }
        take()
        if !pending.isEmpty { emit(pending) }
    }

    private func update(_ event: BeaconSourceEvent) -> BeaconUpdate {
        let (monotonic, wallClock) = clock()
        return BeaconUpdate(event, monotonic: monotonic, wallClock: wallClock)
    }
}

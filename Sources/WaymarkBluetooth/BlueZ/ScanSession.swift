import CBlueZ
import Glibc
import WaymarkCore

/// What ``BlueZScanner`` knows of the bus, bluetoothd, the adapter and the devices, and what it does next.
struct ScanSession {
    let configuration: BlueZConfiguration
    /// The connection, bluetoothd, the adapter scanned with, and the retries.
    private var link: BlueZLink
    /// Whether our discovery session runs on the link's adapter.
    private var discovering = false
    /// Each device's last RSSI and Apple data: an update may carry only one of them.
    private var devices: [String: Device] = [:]
    /// Set when something other than an advertisement was emitted: the batch goes at once.
    var changedState = false
    /// The start of the paused agent's duty cycle.
    private var dutyStart: MonotonicInstant?

    private struct Device {
        var rssi: Int?
        var apple: [UInt8]?
    }

    init(configuration: BlueZConfiguration, now: MonotonicInstant) {
        self.configuration = configuration
        link = BlueZLink(configuration, now: now)
    }

    /// Makes the attempts due at `now` (connect, read BlueZ's objects, start or stop discovery); returns when
    /// the next one is due (or a distant time when only a signal can change anything).
    mutating func step(
        continuous: Bool,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) -> MonotonicInstant {
        let idle = now + .seconds(3600)
        let connection: BusConnection
        switch link.connect(now: now, emit: { emit(.failure($0)) }) {
        case .success(let open): connection = open
        case .failure(let retry):
            changedState = true
            return retry.at
        }
        if link.needsLoad {
            // A bluetoothd that came back runs no discovery of ours.
            stopScanning(emit: emit)
            devices = [:]
            if let retry = link.load(connection, now: now, emit: { emit(.failure($0)) }) {
                changedState = true
                return retry
            }
            drain(now: now, emit: emit)
        }
        // No adapter, or one switched off, waits for BlueZ's signal, not for a retry.
        guard let adapterPath = link.chooseAdapter() else {
            let which = configuration.adapter.map { "adapter \($0)" } ?? "a powered adapter"
            fail(.bluetoothNoAdapter, "BlueZ has no \(which)", now: now, retrying: false, emit: emit)
            return idle
        }
        guard link.isPowered(adapterPath) else {
            fail(.bluetoothAdapterOff, "\(adapterPath) is powered off", now: now, retrying: false, emit: emit)
            return idle
        }
        var wanted = true
        var edge: MonotonicInstant?
        if continuous {
            dutyStart = nil
        } else {
            let start = dutyStart ?? now
            dutyStart = start
            (wanted, edge) = configuration.dutyCycle(startedAt: start, now: now)
        }
        guard wanted != discovering else { return edge ?? idle }
        guard now >= link.retryAt else { return min(link.retryAt, edge ?? idle) }
        do {
            try connection.discover(on: adapterPath, start: wanted)
            setDiscovering(wanted, emit: emit)
        } catch  where wanted && error.isInProgress {
            // An earlier start whose answer came too late: BlueZ runs our discovery already.
            setDiscovering(true, emit: emit)
        } catch  where !wanted && !error.isInProgress && !error.isTimeout {
            // Refused because there is none to stop (the adapter went off or away meanwhile).
            setDiscovering(false, emit: emit)
        } catch {
            fail(.bluetoothDiscoveryFailed, "\(adapterPath): \(error)", now: now, emit: emit)
            return min(link.retryAt, edge ?? idle)
        }
        return edge ?? idle
    }

    /// Waits on the bus until `deadline` (on `clock`), then turns what came into events.
    mutating func wait(
        wakeFD: Int32,
        until deadline: MonotonicInstant,
        clock: () -> MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) {
        guard let connection = link.connection else {
            // No connection: only a wake-up or the retry ends the wait.
            Self.sleep(wakeFD: wakeFD, for: deadline - clock())
            return
        }
        do {
            try connection.run(wakeFD: wakeFD, timeout: deadline - clock())
        } catch {
            lose("\(busName): \(error)", now: clock(), emit: emit)
            return
        }
        drain(now: clock(), emit: emit)
    }

    /// Stops discovery and closes the connection.
    mutating func close(emit: (BeaconSourceEvent) -> Void) {
        if discovering, let connection = link.connection, let adapterPath = link.adapterPath {
            try? connection.discover(on: adapterPath, start: false)
            stopScanning(emit: emit)
        }
        link.close()
    }

    private var busName: String { link.busName }

    private mutating func drain(now: MonotonicInstant, emit: (BeaconSourceEvent) -> Void) {
        guard let connection = link.connection else { return }
        while let message = connection.next() {
            handle(message, now: now, emit: emit)
        }
    }

    private mutating func handle(
        _ message: BusConnection.Message,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) {
        switch link.note(message, now: now) {
        case .poweredOff(let path):
            stopScanning(emit: emit)
            fail(.bluetoothAdapterOff, "\(path) was powered off", now: now, retrying: false, emit: emit)
        case .removed(let path):
            stopScanning(emit: emit)
            fail(.bluetoothNoAdapter, "\(path) was removed", now: now, retrying: false, emit: emit)
        case .serviceGone:
            stopScanning(emit: emit)
            fail(.bluetoothUnavailable, "bluetoothd left \(busName)", now: now, emit: emit)
        case .none, .poweredOn:
            break
        }
        switch message {
        case .device(let path, let rssi, let apple, let known):
            let device = Self.update(&devices[path, default: Device()], rssi: rssi, apple: apple)
            guard !known, discovering, let adapterPath = link.adapterPath, let data = device.apple,
                Self.path(path, isUnder: adapterPath)
            else { return }
            emit(.advertisement(appleData: data, rssi: device.rssi))
        case .deviceRemoved(let path):
            devices[path] = nil
        default:
            break
        }
    }

    /// Merges an update into what is known of a device, and returns the result.
    private static func update(_ device: inout Device, rssi: Int?, apple: [UInt8]?) -> Device {
        if let rssi { device.rssi = rssi }
        if let apple { device.apple = apple }
        return device
    }

    /// Whether `path` is an object under `parent` (`/org/bluez/hci0/dev_…` under `/org/bluez/hci0`).
    private static func path(_ path: String, isUnder parent: String) -> Bool {
        path.utf8.count > parent.utf8.count && path.utf8.starts(with: parent.utf8)
            && path.utf8.dropFirst(parent.utf8.count).first == UInt8(ascii: "/")
    }

    private mutating func setDiscovering(_ on: Bool, emit: (BeaconSourceEvent) -> Void) {
        guard discovering != on else { return }
        discovering = on
        emit(.scanning(on))
        changedState = true
        if on { link.succeeded() }
    }

    private mutating func stopScanning(emit: (BeaconSourceEvent) -> Void) { setDiscovering(false, emit: emit) }

    private mutating func lose(_ message: String, now: MonotonicInstant, emit: (BeaconSourceEvent) -> Void) {
        stopScanning(emit: emit)
        link.lose()
        fail(.bluetoothUnavailable, message, now: now, emit: emit)
    }

    /// Says a failure once per cause; with `retrying`, sets the next attempt after the backoff.
    private mutating func fail(
        _ code: ErrorCode,
        _ message: String,
        now: MonotonicInstant,
        retrying: Bool = true,
        emit: (BeaconSourceEvent) -> Void
    ) {
        if link.fail(code, message, now: now, retrying: retrying, emit: { emit(.failure($0)) }) { changedState = true }
    }

    /// Waits until `instant` on `clock`, or until `wakeFD` is signalled (left signalled, for the next wait).
    static func pause(wakeFD: Int32, until instant: MonotonicInstant, clock: () -> MonotonicInstant) {
        let duration = instant - clock()
        guard duration > .zero else { return }
        var descriptor = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(clamping: (duration.nanoseconds + 999_999) / 1_000_000))
    }

    static func sleep(wakeFD: Int32, for duration: Duration) {
        guard duration > .zero else { return }
        var descriptor = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: (duration.nanoseconds + 999_999) / 1_000_000)
        if poll(&descriptor, 1, milliseconds) > 0 { waymark_wake_fd_clear(wakeFD) }
    }
}

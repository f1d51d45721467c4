import CBlueZ
import Glibc
import WaymarkCore

/// What ``BlueZScanner`` knows of the bus, bluetoothd, the adapter and the devices, and what it does next.
struct ScanSession {
    let configuration: BlueZConfiguration
    private var connection: BusConnection?
    /// Whether BlueZ's objects are to be read (again): after connecting, and when bluetoothd came back.
    private var needsLoad = true
    /// Adapters by object path, and whether each is powered.
    private var adapters: [String: Bool] = [:]
    /// The adapter scanned with.
    private var adapterPath: String?
    /// Whether our discovery session runs on ``adapterPath``.
    private var discovering = false
    /// Each device's last RSSI and Apple data: an update may carry only one of them.
    private var devices: [String: Device] = [:]
    /// No attempt (connect, load, discovery) before this.
    private var retryAt: MonotonicInstant
    private var backoff: Backoff
    private var random = SystemRandomNumberGenerator()
    /// The failure last said: the next one is said only when its code differs, or after scanning worked.
    private var lastFailure: ErrorCode?
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
        retryAt = now
        backoff = Backoff(minimum: configuration.retryMin, maximum: max(configuration.retryMax, configuration.retryMin))
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
        if let open = self.connection {
            connection = open
        } else {
            guard now >= retryAt else { return retryAt }
            do {
                connection = try BusConnection(address: configuration.busAddress)
            } catch {
                fail(.bluetoothUnavailable, "\(busName): \(error)", now: now, emit: emit)
                return retryAt
            }
            self.connection = connection
            needsLoad = true
        }
        if needsLoad {
            guard now >= retryAt else { return retryAt }
            // A bluetoothd that came back runs no discovery of ours.
            stopScanning(emit: emit)
            adapters = [:]
            devices = [:]
            adapterPath = nil
            do {
                try connection.load()
            } catch {
                fail(.bluetoothUnavailable, "bluetoothd is not reachable on \(busName): \(error)", now: now, emit: emit)
                return retryAt
            }
            needsLoad = false
            drain(now: now, emit: emit)
        }
        // Without a configured adapter, the first powered one, chosen again when the one in use is off.
        if adapterPath == nil || (configuration.adapter == nil && adapters[adapterPath ?? ""] != true) {
            adapterPath = chooseAdapter()
        }
        // No adapter, or one switched off, waits for BlueZ's signal, not for a retry.
        guard let adapterPath else {
            let which = configuration.adapter.map { "adapter \($0)" } ?? "a powered adapter"
            fail(.bluetoothNoAdapter, "BlueZ has no \(which)", now: now, retrying: false, emit: emit)
            return idle
        }
        guard adapters[adapterPath] == true else {
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
        guard now >= retryAt else { return min(retryAt, edge ?? idle) }
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
            return min(retryAt, edge ?? idle)
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
        guard let connection else {
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
        if discovering, let connection, let adapterPath {
            try? connection.discover(on: adapterPath, start: false)
            stopScanning(emit: emit)
        }
        connection = nil
    }

    private var busName: String { configuration.busAddress ?? "the system bus" }

    /// The configured adapter when BlueZ has it; else the first powered one, else the first, in the order of
    /// their numbers (hci2 before hci10).
    private func chooseAdapter() -> String? { Self.chooseAdapter(named: configuration.adapter, among: adapters) }

    /// The adapter named `name` when BlueZ has it; else the first powered one of `adapters` (by object path, and
    /// whether powered), else the first, in the order of their numbers (hci2 before hci10).
    static func chooseAdapter(named name: String?, among adapters: [String: Bool]) -> String? {
        if let name {
            return adapters.keys.first { $0.split(separator: "/").last.map(String.init) == name }
        }
        let ordered = adapters.keys.sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
        return ordered.first { adapters[$0] == true } ?? ordered.first
    }

    private mutating func drain(now: MonotonicInstant, emit: (BeaconSourceEvent) -> Void) {
        guard let connection else { return }
        while let message = connection.next() {
            handle(message, now: now, emit: emit)
        }
    }

    private mutating func handle(
        _ message: BusConnection.Message,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) {
        switch message {
        case .adapter(let path, let powered):
            adapters[path] = powered ?? false
            if adapterPath == nil { retryAt = now }
        case .adapterPowered(let path, let powered):
            adapters[path] = powered
            guard path == adapterPath else { return }
            if !powered {
                stopScanning(emit: emit)
                fail(.bluetoothAdapterOff, "\(path) was powered off", now: now, retrying: false, emit: emit)
            } else {
                retryAt = now
            }
        case .adapterRemoved(let path):
            adapters[path] = nil
            guard path == adapterPath else { return }
            adapterPath = nil
            stopScanning(emit: emit)
            fail(.bluetoothNoAdapter, "\(path) was removed", now: now, retrying: false, emit: emit)
        case .device(let path, let rssi, let apple, let known):
            let device = Self.update(&devices[path, default: Device()], rssi: rssi, apple: apple)
            guard !known, discovering, let adapterPath, let data = device.apple, Self.path(path, isUnder: adapterPath)
            else { return }
            emit(.advertisement(appleData: data, rssi: device.rssi))
        case .deviceRemoved(let path):
            devices[path] = nil
        case .serviceGone:
            stopScanning(emit: emit)
            adapterPath = nil
            needsLoad = true
            fail(.bluetoothUnavailable, "bluetoothd left \(busName)", now: now, emit: emit)
        case .serviceBack:
            needsLoad = true
            retryAt = now
        case .advertisementRegistered, .advertisementRefused, .advertisementReleased:
            break  // The advertiser's connection's, never the scanner's.
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
        if on {
            backoff.reset()
            lastFailure = nil
        }
    }

    private mutating func stopScanning(emit: (BeaconSourceEvent) -> Void) { setDiscovering(false, emit: emit) }

    private mutating func lose(_ message: String, now: MonotonicInstant, emit: (BeaconSourceEvent) -> Void) {
        stopScanning(emit: emit)
        connection = nil
        adapterPath = nil
        needsLoad = true
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
        if retrying { retryAt = now + backoff.nextDelay(using: &random) }
        guard lastFailure != code else { return }
        lastFailure = code
        emit(.failure(BeaconSourceFailure(code: code, message: message)))
        changedState = true
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

import WaymarkCore

#if canImport(Glibc)
import Glibc
#endif

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
        var apple: BusConnection.AppleData?
    }

    init(configuration: BlueZConfiguration, now: MonotonicInstant) {
        self.configuration = configuration
        retryAt = now
        backoff = Backoff(minimum: configuration.retryMin, maximum: max(configuration.retryMax, configuration.retryMin))
    }

    /// Makes the attempts due at `now` (connect, read BlueZ's objects, start or stop discovery); returns when
    /// the next one is due (or a distant time when none is).
    mutating func step(
        continuous: Bool,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) -> MonotonicInstant {
        let idle = now + .seconds(3600)
        if connection == nil {
            guard now >= retryAt else { return retryAt }
            do {
                connection = try BusConnection(address: configuration.busAddress)
                needsLoad = true
            } catch {
                fail(.bluetoothUnavailable, "\(busName): \(error)", now: now, emit: emit)
                return retryAt
            }
        }
        guard let connection else { return retryAt }
        if needsLoad {
            guard now >= retryAt else { return retryAt }
            adapters = [:]
            devices = [:]
            adapterPath = nil
            do {
                try connection.load()
                needsLoad = false
                drain(now: now, emit: emit)
            } catch {
                fail(.bluetoothUnavailable, "bluetoothd is not reachable on \(busName): \(error)", now: now, emit: emit)
                return retryAt
            }
        }
        if adapterPath == nil {
            adapterPath = chooseAdapter()
            guard let adapterPath else {
                let which = configuration.adapter.map { "adapter \($0)" } ?? "a powered adapter"
                fail(.bluetoothNoAdapter, "BlueZ has no \(which)", now: now, emit: emit)
                return idle
            }
            _ = adapterPath
        }
        guard let adapterPath, adapters[adapterPath] == true else {
            if let adapterPath { fail(.bluetoothAdapterOff, "\(adapterPath) is powered off", now: now, emit: emit) }
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
        if wanted != discovering {
            guard now >= retryAt else { return min(retryAt, edge ?? idle) }
            do {
                try connection.discover(on: adapterPath, start: wanted)
                discovering = wanted
                emit(.scanning(wanted))
                changedState = true
                if wanted {
                    backoff.reset()
                    lastFailure = nil
                }
            } catch {
                if wanted {
                    fail(.bluetoothDiscoveryFailed, "\(adapterPath): \(error)", now: now, emit: emit)
                    return min(retryAt, edge ?? idle)
                }
                // Stopping failed (the adapter went away meanwhile): BlueZ stops a dead adapter's discovery.
                discovering = false
                emit(.scanning(false))
                changedState = true
            }
        }
        return edge ?? idle
    }

    /// Waits on the bus until `deadline`, then turns what came into events.
    mutating func wait(
        wakeFD: Int32,
        until deadline: MonotonicInstant,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) {
        guard let connection else {
            // No connection: only a wake-up or the retry ends the wait.
            Self.sleep(wakeFD: wakeFD, for: deadline - now)
            return
        }
        do {
            try connection.run(wakeFD: wakeFD, timeout: deadline - now)
        } catch {
            lose("\(busName): \(error)", now: now, emit: emit)
            return
        }
        drain(now: now, emit: emit)
    }

    /// Stops discovery and closes the connection.
    mutating func close(emit: (BeaconSourceEvent) -> Void) {
        if discovering, let connection, let adapterPath {
            try? connection.discover(on: adapterPath, start: false)
            discovering = false
            emit(.scanning(false))
        }
        connection = nil
    }

    private var busName: String { configuration.busAddress ?? "the system bus" }

    private func chooseAdapter() -> String? {
        if let name = configuration.adapter {
            return adapters.keys.first { $0.split(separator: "/").last.map(String.init) == name }
        }
        return adapters.filter(\.value).keys.min() ?? adapters.keys.min()
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
        case .adapterPowered(let path, let powered):
            adapters[path] = powered
            guard path == adapterPath else { return }
            if !powered {
                stopScanning(emit: emit)
                fail(.bluetoothAdapterOff, "\(path) was powered off", now: now, emit: emit)
            } else {
                retryAt = now
            }
        case .adapterRemoved(let path):
            adapters[path] = nil
            guard path == adapterPath else { return }
            adapterPath = nil
            stopScanning(emit: emit)
            fail(.bluetoothNoAdapter, "\(path) was removed", now: now, emit: emit)
        case .device(let path, let rssi, let apple, let known):
            var device = devices[path] ?? Device()
            if let rssi { device.rssi = rssi }
            if let apple { device.apple = apple }
            devices[path] = device
            guard !known, discovering, let adapterPath, path.hasPrefix(adapterPath + "/"),
                let data = device.apple, let rssi = device.rssi
            else { return }
            if data.length != data.bytes.count {
                emit(.rejected(.badLength))
            } else {
                switch IBeaconFrame.parse(data.bytes, rssi: rssi) {
                case .success(let sighting): emit(.sighting(sighting))
                case .failure(let rejection): emit(.rejected(rejection))
                }
            }
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
        }
    }

    private mutating func stopScanning(emit: (BeaconSourceEvent) -> Void) {
        guard discovering else { return }
        discovering = false
        emit(.scanning(false))
        changedState = true
    }

    private mutating func lose(_ message: String, now: MonotonicInstant, emit: (BeaconSourceEvent) -> Void) {
        stopScanning(emit: emit)
        connection = nil
        adapterPath = nil
        needsLoad = true
        fail(.bluetoothUnavailable, message, now: now, emit: emit)
    }

    /// Says a failure once per cause and sets the next attempt.
    private mutating func fail(
        _ code: ErrorCode,
        _ message: String,
        now: MonotonicInstant,
        emit: (BeaconSourceEvent) -> Void
    ) {
        retryAt = now + backoff.nextDelay(using: &random)
        guard lastFailure != code else { return }
        lastFailure = code
        emit(.failure(BeaconSourceFailure(code: code, message: message)))
        changedState = true
    }

    private static func sleep(wakeFD: Int32, for duration: Duration) {
        guard duration > .zero else { return }
        // A bus-less wait: poll the wake-up descriptor alone.
        var descriptor = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: (duration.nanoseconds + 999_999) / 1_000_000)
        _ = poll(&descriptor, 1, milliseconds)
    }
}

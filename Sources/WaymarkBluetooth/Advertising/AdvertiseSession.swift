import WaymarkCore

/// What ``BlueZAdvertiser`` knows of the bus, bluetoothd, the adapter and its registration, and what it does next.
///
/// bluetoothd reads the advertisement's properties from the agent (`GetAll`) before it answers
/// `RegisterAdvertisement`, so the registration is sent without waiting and its answer read like a signal.
struct AdvertiseSession {
    let configuration: AdvertiserConfiguration
    private var connection: BusConnection?
    private var needsLoad = true
    /// Adapters by object path, and whether each is powered.
    private var adapters: [String: Bool] = [:]
    private var adapterPath: String?
    private var registration = Registration.none
    private var retryAt: MonotonicInstant
    private var backoff: Backoff
    private var random = SystemRandomNumberGenerator()
    /// The failure last said: the next one is said only when its code differs, or after advertising worked.
    private var lastFailure: ErrorCode?

    private enum Registration {
        case none
        /// `RegisterAdvertisement` sent at this instant, on this adapter; no answer yet.
        case pending(since: MonotonicInstant, adapter: String)
        case registered(adapter: String)
    }

    /// How long an answer to `RegisterAdvertisement` may take before the call is made again (sd-bus's own limit
    /// is 25 s).
    static let answerTimeout: Duration = .seconds(30)

    init(configuration: AdvertiserConfiguration, now: MonotonicInstant) {
        self.configuration = configuration
        retryAt = now
        backoff = Backoff(minimum: configuration.retryMin, maximum: max(configuration.retryMax, configuration.retryMin))
    }

    var isAdvertising: Bool { if case .registered = registration { true } else { false } }

    /// Makes the attempts due at `now` toward `wanted` (connect, read BlueZ's adapters, register or unregister);
    /// returns when the next one is due.
    mutating func step(wanted: Bool, now: MonotonicInstant, emit: (AdvertiserEvent) -> Void) -> MonotonicInstant {
        let idle = now + .seconds(3600)
        // Nothing wanted and nothing registered: no connection is needed yet.
        if !wanted, connection == nil { return idle }
        let connection: BusConnection
        if let open = self.connection {
            connection = open
        } else {
            guard now >= retryAt else { return retryAt }
            do {
                let opened = try BusConnection(address: configuration.busAddress, devices: false)
                let frame = IBeaconFrame.encode(configuration.beacon, measuredPower: configuration.measuredPower)
                try opened.exportAdvertisement(
                    at: configuration.objectPath,
                    appleData: frame,
                    intervalMilliseconds: configuration.intervalMilliseconds
                )
                connection = opened
            } catch {
                fail(.bluetoothUnavailable, "\(busName): \(error)", now: now, emit: emit)
                return retryAt
            }
            self.connection = connection
            needsLoad = true
        }
        if needsLoad {
            guard now >= retryAt else { return retryAt }
            adapters = [:]
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
        if adapterPath == nil || (configuration.adapter == nil && adapters[adapterPath ?? ""] != true) {
            adapterPath = ScanSession.chooseAdapter(named: configuration.adapter, among: adapters)
        }
        guard let adapterPath else {
            let which = configuration.adapter.map { "adapter \($0)" } ?? "a powered adapter"
            fail(.bluetoothNoAdapter, "BlueZ has no \(which) to advertise on", now: now, retrying: false, emit: emit)
            return idle
        }
        switch registration {
        case .none where wanted:
            guard adapters[adapterPath] == true else {
                fail(.bluetoothAdapterOff, "\(adapterPath) is powered off", now: now, retrying: false, emit: emit)
                return idle
            }
            guard now >= retryAt else { return retryAt }
            do {
                try connection.registerAdvertisement(on: adapterPath)
                registration = .pending(since: now, adapter: adapterPath)
                return now + Self.answerTimeout
            } catch {
                fail(.bluetoothAdvertisingRefused, "\(adapterPath): \(error)", now: now, emit: emit)
                return retryAt
            }
        case .pending(let since, _):
            // The answer comes as a message; one that never comes is given up and the call made again.
            guard now - since >= Self.answerTimeout else { return since + Self.answerTimeout }
            registration = .none
            fail(
                .bluetoothAdvertisingRefused,
                "\(adapterPath): no answer to RegisterAdvertisement",
                now: now,
                emit: emit
            )
            return retryAt
        case .registered(let adapter) where !wanted:
            unregister(on: adapter, reason: nil, emit: emit)
            return idle
        case .none, .registered:
            return idle
        }
    }

    /// Waits on the bus until `deadline` (on `clock`), then acts on what came.
    mutating func wait(
        wakeFD: Int32,
        until deadline: MonotonicInstant,
        clock: () -> MonotonicInstant,
        emit: (AdvertiserEvent) -> Void
    ) {
        guard let connection else {
            ScanSession.sleep(wakeFD: wakeFD, for: deadline - clock())
            return
        }
        do {
            try connection.run(wakeFD: wakeFD, timeout: deadline - clock())
        } catch {
            stopped(reason: "connection_lost", emit: emit)
            self.connection = nil
            needsLoad = true
            fail(.bluetoothUnavailable, "\(busName): \(error)", now: clock(), emit: emit)
            return
        }
        drain(now: clock(), emit: emit)
    }

    /// Unregisters (a clean exit) and closes the connection: bluetoothd also drops the advertisements of a
    /// connection that closes, so a crash leaves none behind either.
    mutating func close(emit: (AdvertiserEvent) -> Void) {
        if case .registered(let adapter) = registration { unregister(on: adapter, reason: nil, emit: emit) }
        connection = nil
    }

    private var busName: String { configuration.busAddress ?? "the system bus" }

    private mutating func unregister(on adapter: String, reason: String?, emit: (AdvertiserEvent) -> Void) {
        do {
            try connection?.unregisterAdvertisement(on: adapter)
        } catch  where error.isDoesNotExist {
            // bluetoothd forgot it already (it restarted, the adapter went): stopped all the same.
        } catch {
            // Not unregistered, but given up: the connection's close takes the advertisement with it.
            fail(.bluetoothAdvertisingRefused, "\(adapter): \(error)", now: retryAt, retrying: false, emit: emit)
        }
        stopped(reason: reason, emit: emit)
    }

    /// Leaves the registered state, saying so when it was registered.
    private mutating func stopped(reason: String?, emit: (AdvertiserEvent) -> Void) {
        let was = isAdvertising
        registration = .none
        if was { emit(.advertising(false, reason: reason)) }
    }

    private mutating func drain(now: MonotonicInstant, emit: (AdvertiserEvent) -> Void) {
        guard let connection else { return }
        while let message = connection.next() { handle(message, now: now, emit: emit) }
    }

    private mutating func handle(
        _ message: BusConnection.Message,
        now: MonotonicInstant,
        emit: (AdvertiserEvent) -> Void
    ) {
        switch message {
        case .advertisementRegistered:
            guard case .pending(_, let adapter) = registration else { return }
            registration = .registered(adapter: adapter)
            backoff.reset()
            lastFailure = nil
            emit(.advertising(true, reason: nil))
        case .advertisementRefused(let why):
            guard case .pending(_, let adapter) = registration else { return }
            registration = .none
            fail(.bluetoothAdvertisingRefused, "\(adapter): \(why)", now: now, emit: emit)
        case .advertisementReleased:
            stopped(reason: "released", emit: emit)
            retryAt = now + backoff.nextDelay(using: &random)
        case .adapter(let path, let powered):
            adapters[path] = powered ?? false
            if adapterPath == nil { retryAt = now }
        case .adapterPowered(let path, let powered):
            adapters[path] = powered
            // bluetoothd keeps a registration while its adapter is off and advertises again when it is on.
            if path == adapterPath, !powered {
                fail(.bluetoothAdapterOff, "\(path) was powered off", now: now, retrying: false, emit: emit)
            } else if path == adapterPath {
                retryAt = now
            }
        case .adapterRemoved(let path):
            adapters[path] = nil
            guard path == adapterPath else { return }
            adapterPath = nil
            stopped(reason: "adapter_removed", emit: emit)
            fail(.bluetoothNoAdapter, "\(path) was removed", now: now, retrying: false, emit: emit)
        case .serviceGone:
            stopped(reason: "bluetoothd_gone", emit: emit)
            adapterPath = nil
            needsLoad = true
            fail(.bluetoothUnavailable, "bluetoothd left \(busName)", now: now, emit: emit)
        case .serviceBack:
            needsLoad = true
            retryAt = now
        case .device, .deviceRemoved:
            break
        }
    }

    /// Says a failure once per cause; with `retrying`, sets the next attempt after the backoff.
    private mutating func fail(
        _ code: ErrorCode,
        _ message: String,
        now: MonotonicInstant,
        retrying: Bool = true,
        emit: (AdvertiserEvent) -> Void
    ) {
        if retrying { retryAt = now + backoff.nextDelay(using: &random) }
        guard lastFailure != code else { return }
        lastFailure = code
        emit(.failure(BeaconSourceFailure(code: code, message: message)))
    }
}

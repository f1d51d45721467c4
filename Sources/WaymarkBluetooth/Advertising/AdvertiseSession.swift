import WaymarkCore

/// What ``BlueZAdvertiser`` knows of the bus, bluetoothd, the adapter and its registration, and what it does next.
///
/// bluetoothd reads the advertisement's properties from the agent (`GetAll`) before it answers
/// `RegisterAdvertisement`, so the registration is sent without waiting and its answer read like a signal.
struct AdvertiseSession {
    let configuration: AdvertiserConfiguration
    /// The connection (the advertisement exported on it), bluetoothd, the adapter, and the retries.
    private var link: BlueZLink
    private var registration = Registration.none
    /// The wish of the last step: a wish that comes again says its failures again, even one said before.
    private var wasWanted = false

    private enum Registration {
        case none
        /// `RegisterAdvertisement` sent at this instant, on this adapter; no answer yet.
        case pending(since: MonotonicInstant, adapter: String)
        case registered(adapter: String)
    }

    /// How long an answer to `RegisterAdvertisement` may take before the call is made again (sd-bus's own limit
    /// is 25 s).
    static let answerTimeout: Duration = .seconds(30)
    /// How long the unregistration at exit may wait: the agent's last commit waits for it (systemd's stop timeout is
    /// 30 s), and the connection's close removes the advertisement anyway.
    static let exitTimeout: Duration = .seconds(2)

    init(configuration: AdvertiserConfiguration, now: MonotonicInstant) {
        self.configuration = configuration
        link = BlueZLink(configuration, now: now)
    }

    var isAdvertising: Bool { if case .registered = registration { true } else { false } }

    /// Makes the attempts due at `now` toward `wanted` (connect, read BlueZ's adapters, register or unregister);
    /// returns when the next one is due.
    mutating func step(wanted: Bool, now: MonotonicInstant, emit: (AdvertiserEvent) -> Void) -> MonotonicInstant {
        let idle = now + .seconds(3600)
        defer { wasWanted = wanted }
        if wanted, !wasWanted { link.succeeded() }
        // Nothing wanted and nothing registered: no connection is needed, and none is kept, so that nothing
        // bluetoothd does while the board is silent (a restart, an adapter off) is said as a failure.
        if !wanted, case .none = registration {
            link.close()
            return idle
        }
        // Copied out: the closure must not reach into `self` while the link changes.
        let (path, interval) = (configuration.objectPath, configuration.intervalMilliseconds)
        let frame = IBeaconFrame.encode(configuration.beacon, measuredPower: configuration.measuredPower)
        let connection: BusConnection
        let opened = link.connect(
            now: now,
            devices: false,
            open: { connection throws(BusConnection.Failure) in
                try connection.exportAdvertisement(at: path, appleData: frame, intervalMilliseconds: interval)
            },
            emit: { emit(.failure($0)) }
        )
        switch opened {
        case .success(let open): connection = open
        case .failure(let retry): return retry.at
        }
        if link.needsLoad {
            if let retry = link.load(connection, now: now, emit: { emit(.failure($0)) }) { return retry }
            drain(now: now, emit: emit)
        }
        guard let adapterPath = link.chooseAdapter() else {
            let which = configuration.adapter.map { "adapter \($0)" } ?? "a powered adapter"
            fail(.bluetoothNoAdapter, "BlueZ has no \(which) to advertise on", now: now, retrying: false, emit: emit)
            return idle
        }
        switch registration {
        case .none where wanted:
            guard link.isPowered(adapterPath) else {
                fail(.bluetoothAdapterOff, "\(adapterPath) is powered off", now: now, retrying: false, emit: emit)
                return idle
            }
            guard now >= link.retryAt else { return link.retryAt }
            do {
                try connection.registerAdvertisement(on: adapterPath)
                registration = .pending(since: now, adapter: adapterPath)
                return now + Self.answerTimeout
            } catch {
                fail(.bluetoothAdvertisingRefused, "\(adapterPath): \(error)", now: now, emit: emit)
                return link.retryAt
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
            return link.retryAt
        case .registered(let adapter) where !wanted:
            unregister(on: adapter, now: now, emit: emit)
            link.close()
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
        guard let connection = link.connection else {
            ScanSession.sleep(wakeFD: wakeFD, for: deadline - clock())
            return
        }
        do {
            try connection.run(wakeFD: wakeFD, timeout: deadline - clock())
        } catch {
            stopped(reason: "connection_lost", emit: emit)
            link.lose()
            fail(.bluetoothUnavailable, "\(link.busName): \(error)", now: clock(), emit: emit)
            return
        }
        drain(now: clock(), emit: emit)
    }

    /// Unregisters (a clean exit) and closes the connection: bluetoothd also drops the advertisements of a
    /// connection that closes, so a crash leaves none behind either.
    mutating func close(now: MonotonicInstant, emit: (AdvertiserEvent) -> Void) {
        if case .registered(let adapter) = registration {
            unregister(on: adapter, timeout: Self.exitTimeout, now: now, emit: emit)
        }
        link.close()
    }

    private mutating func unregister(
        on adapter: String,
        timeout: Duration? = nil,
        now: MonotonicInstant,
        emit: (AdvertiserEvent) -> Void
    ) {
        do {
            try link.connection?.unregisterAdvertisement(on: adapter, timeout: timeout)
        } catch  where error.isDoesNotExist {
            // bluetoothd forgot it already (it restarted, the adapter went): stopped all the same.
        } catch {
            // Not unregistered: the connection is dropped, and bluetoothd's watch on it removes the advertisement
            // (else the board would go on advertising, and the next registration be AlreadyExists).
            link.lose()
            fail(.bluetoothAdvertisingRefused, "\(adapter): \(error)", now: now, retrying: false, emit: emit)
        }
        stopped(reason: nil, emit: emit)
    }

    /// Leaves the registered state, saying so when it was registered.
    private mutating func stopped(reason: String?, emit: (AdvertiserEvent) -> Void) {
        let was = isAdvertising
        registration = .none
        if was { emit(.advertising(false, reason: reason)) }
    }

    private mutating func drain(now: MonotonicInstant, emit: (AdvertiserEvent) -> Void) {
        guard let connection = link.connection else { return }
        while let message = connection.next() { handle(message, now: now, emit: emit) }
    }

    private mutating func handle(
        _ message: BusConnection.Message,
        now: MonotonicInstant,
        emit: (AdvertiserEvent) -> Void
    ) {
        switch link.note(message, now: now) {
        case .poweredOff(let path):
            // Nothing goes out while the radio is off. bluetoothd keeps the registration, so the registration made
            // when it is on again is AlreadyExists: advertising again.
            stopped(reason: "adapter_off", emit: emit)
            fail(.bluetoothAdapterOff, "\(path) was powered off", now: now, retrying: false, emit: emit)
        case .removed(let path):
            stopped(reason: "adapter_removed", emit: emit)
            fail(.bluetoothNoAdapter, "\(path) was removed", now: now, retrying: false, emit: emit)
        case .serviceGone:
            stopped(reason: "bluetoothd_gone", emit: emit)
            fail(.bluetoothUnavailable, "bluetoothd left \(link.busName)", now: now, emit: emit)
        case .none, .poweredOn:
            break
        }
        switch message {
        case .advertisementRegistered:
            registered(emit: emit)
        case .advertisementRefused(let why) where why.contains("org.bluez.Error.AlreadyExists"):
            // bluetoothd has this connection's advertisement already (kept while its adapter was off).
            registered(emit: emit)
        case .advertisementRefused(let why):
            guard case .pending(_, let adapter) = registration else { return }
            registration = .none
            fail(.bluetoothAdvertisingRefused, "\(adapter): \(why)", now: now, emit: emit)
        case .advertisementReleased:
            stopped(reason: "released", emit: emit)
            link.retryLater(now: now)
        default:
            break
        }
    }

    /// The answer to the pending registration is yes.
    private mutating func registered(emit: (AdvertiserEvent) -> Void) {
        guard case .pending(_, let adapter) = registration else { return }
        registration = .registered(adapter: adapter)
        link.succeeded()
        emit(.advertising(true, reason: nil))
    }

    private mutating func fail(
        _ code: ErrorCode,
        _ message: String,
        now: MonotonicInstant,
        retrying: Bool = true,
        emit: (AdvertiserEvent) -> Void
    ) {
        link.fail(code, message, now: now, retrying: retrying, emit: { emit(.failure($0)) })
    }
}

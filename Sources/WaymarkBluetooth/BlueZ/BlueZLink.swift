import WaymarkCore

/// What a session with BlueZ keeps of its bus connection, bluetoothd and the adapter, and how it fails and
/// retries: shared by the scanner's ``ScanSession`` and the advertiser's ``AdvertiseSession``, each with a
/// connection of its own.
struct BlueZLink {
    /// A D-Bus address; nil is the system bus.
    let busAddress: String?
    /// The adapter's name (`hci0`); nil takes the first powered one.
    let adapterName: String?
    private(set) var connection: BusConnection?
    /// Whether BlueZ's objects are to be read (again): after connecting, and when bluetoothd came back.
    private(set) var needsLoad = true
    /// Adapters by object path, and whether each is powered.
    private(set) var adapters: [String: Bool] = [:]
    /// The adapter in use.
    var adapterPath: String?
    /// No attempt (connect, load, a call) before this.
    private(set) var retryAt: MonotonicInstant
    private var backoff: Backoff
    private var random = SystemRandomNumberGenerator()
    /// The failure last said: the next one is said only when its code differs, or after ``succeeded()``.
    private var lastFailure: ErrorCode?

    /// What a message meant for the adapter in use.
    enum AdapterNews {
        case none
        case poweredOn
        case poweredOff(String)
        case removed(String)
        /// bluetoothd left the bus.
        case serviceGone
    }

    init(_ endpoint: some BlueZEndpoint, now: MonotonicInstant) {
        busAddress = endpoint.busAddress
        adapterName = endpoint.adapter
        retryAt = now
        backoff = Backoff(minimum: endpoint.retryMin, maximum: max(endpoint.retryMax, endpoint.retryMin))
    }

    var busName: String { busAddress ?? "the system bus" }

    /// The connection, made at `now` when there is none and a retry is due (`open` prepares a new one); else when
    /// to try again.
    mutating func connect(
        now: MonotonicInstant,
        devices: Bool = true,
        open: (BusConnection) throws(BusConnection.Failure) -> Void = { _ in },
        emit: (BeaconSourceFailure) -> Void
    ) -> Result<BusConnection, Retry> {
        if let connection { return .success(connection) }
        guard now >= retryAt else { return .failure(Retry(at: retryAt)) }
        do {
            let opened = try BusConnection(address: busAddress, devices: devices)
            try open(opened)
            connection = opened
            needsLoad = true
            return .success(opened)
        } catch {
            fail(.bluetoothUnavailable, "\(busName): \(error)", now: now, emit: emit)
            return .failure(Retry(at: retryAt))
        }
    }

    /// When to try again.
    struct Retry: Error {
        var at: MonotonicInstant
    }

    /// Reads BlueZ's objects when needed and due (what they say is then read with ``BusConnection/next()``);
    /// nil when done, else when to try again.
    mutating func load(
        _ connection: BusConnection,
        now: MonotonicInstant,
        emit: (BeaconSourceFailure) -> Void
    )
        -> MonotonicInstant?
    {
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
        return nil
    }

    /// The adapter to use: the one in use, or the configured one when BlueZ has it; without a configured one, the
    /// first powered, chosen again when the one in use is off.
    mutating func chooseAdapter() -> String? {
        if adapterPath == nil || (adapterName == nil && adapters[adapterPath ?? ""] != true) {
            adapterPath = Self.chooseAdapter(named: adapterName, among: adapters)
        }
        return adapterPath
    }

    /// The adapter named `name` when BlueZ has it; else the first powered one of `adapters` (by object path, and
    /// whether powered), else the first, in the order of their numbers (hci2 before hci10).
    static func chooseAdapter(named name: String?, among adapters: [String: Bool]) -> String? {
        if let name {
            return adapters.keys.first { $0.split(separator: "/").last.map(String.init) == name }
        }
        let ordered = adapters.keys.sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
        return ordered.first { adapters[$0] == true } ?? ordered.first
    }

    /// Whether the adapter at `path` is powered.
    func isPowered(_ path: String) -> Bool { adapters[path] == true }

    /// Takes what `message` says of bluetoothd and the adapters.
    mutating func note(_ message: BusConnection.Message, now: MonotonicInstant) -> AdapterNews {
        switch message {
        case .adapter(let path, let powered):
            adapters[path] = powered ?? false
            if adapterPath == nil { retryAt = now }
            return .none
        case .adapterPowered(let path, let powered):
            adapters[path] = powered
            guard path == adapterPath else { return .none }
            guard powered else { return .poweredOff(path) }
            retryAt = now
            return .poweredOn
        case .adapterRemoved(let path):
            adapters[path] = nil
            guard path == adapterPath else { return .none }
            adapterPath = nil
            return .removed(path)
        case .serviceGone:
            adapterPath = nil
            needsLoad = true
            return .serviceGone
        case .serviceBack:
            needsLoad = true
            retryAt = now
            return .none
        case .device, .deviceRemoved, .advertisementRegistered, .advertisementRefused, .advertisementReleased:
            return .none
        }
    }

    /// The connection was lost: a new one is made after the backoff.
    mutating func lose() {
        connection = nil
        adapterPath = nil
        needsLoad = true
    }

    /// Closes the connection.
    mutating func close() { connection = nil }

    /// What was tried worked: the backoff starts again from its minimum, and every failure is said again.
    mutating func succeeded() {
        backoff.reset()
        lastFailure = nil
    }

    /// Tries again after the backoff from `now`.
    mutating func retryLater(now: MonotonicInstant) { retryAt = now + backoff.nextDelay(using: &random) }

    /// Says a failure once per cause; with `retrying`, sets the next attempt after the backoff. Returns whether
    /// it was said.
    @discardableResult
    mutating func fail(
        _ code: ErrorCode,
        _ message: String,
        now: MonotonicInstant,
        retrying: Bool = true,
        emit: (BeaconSourceFailure) -> Void
    ) -> Bool {
        if retrying { retryLater(now: now) }
        guard lastFailure != code else { return false }
        lastFailure = code
        emit(BeaconSourceFailure(code: code, message: message))
        return true
    }
}

/// Where a session reaches BlueZ, and how it retries: the scanner's and the advertiser's configurations.
protocol BlueZEndpoint {
    var busAddress: String? { get }
    var adapter: String? { get }
    var retryMin: Duration { get }
    var retryMax: Duration { get }
}

extension BlueZConfiguration: BlueZEndpoint {}
extension AdvertiserConfiguration: BlueZEndpoint {}

import CBlueZ
import Glibc
import WaymarkSystem

/// A connection to a D-Bus bus, subscribed to BlueZ's signals (the `CBlueZ` C target, on sd-bus).
final class BusConnection {
    /// What the bus said of BlueZ, one at a time.
    enum Message {
        case adapter(path: String, powered: Bool?)
        case adapterPowered(path: String, powered: Bool)
        case adapterRemoved(path: String)
        /// A device's update: its RSSI, its manufacturer data of company 0x004C (Apple; the first 32 bytes: longer
        /// data is no iBeacon frame either way), `known` for a device BlueZ had before this connection (its data,
        /// no sighting).
        case device(path: String, rssi: Int?, apple: [UInt8]?, known: Bool)
        case deviceRemoved(path: String)
        case serviceGone
        case serviceBack
        /// BlueZ answered our `RegisterAdvertisement`: registered, or refused with its error's name and message.
        case advertisementRegistered
        case advertisementRefused(String)
        /// bluetoothd called our advertisement's `Release`.
        case advertisementReleased
    }

    /// A call refused or a connection lost: BlueZ's or the bus's own words.
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String

        /// BlueZ says our discovery already starts or stops.
        var isInProgress: Bool { description.contains("org.bluez.Error.InProgress") }
        /// BlueZ has no such registration of ours (`UnregisterAdvertisement` after bluetoothd forgot it).
        var isDoesNotExist: Bool { description.contains("org.bluez.Error.DoesNotExist") }
        /// No answer came in time: the call may have been carried out.
        var isTimeout: Bool { code == -ETIMEDOUT || description.contains("org.freedesktop.DBus.Error.NoReply") }
    }

    private let bus: OpaquePointer

    /// Connects to `address`, or to the system bus when nil; without `devices`, no device updates are read.
    init(address: String?, devices: Bool = true) throws(Failure) {
        var bus: OpaquePointer?
        var error = [CChar](repeating: 0, count: 512)
        let code: Int32 =
            if let address {
                waymark_bus_open(address, devices ? 1 : 0, &bus, &error, error.count)
            } else {
                waymark_bus_open(nil, devices ? 1 : 0, &bus, &error, error.count)
            }
        guard code == 0, let bus else { throw Failure(code: code, description: Self.text(error)) }
        self.bus = bus
    }

    deinit { waymark_bus_close(bus) }

    /// Asks for BlueZ's adapters and devices (then read with ``next()``).
    func load() throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let code = waymark_bluez_load(bus, &error, error.count)
        guard code == 0 else { throw Failure(code: code, description: Self.text(error)) }
    }

    /// Starts LE discovery with duplicates reported, or stops it, on the adapter at `adapterPath`.
    func discover(on adapterPath: String, start: Bool) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let code = waymark_bluez_discover(bus, adapterPath, start ? 1 : 0, &error, error.count)
        guard code == 0 else { throw Failure(code: code, description: Self.text(error)) }
    }

    /// Exports the `org.bluez.LEAdvertisement1` object at `path`: a broadcast of `appleData` as Apple's
    /// manufacturer data, at `intervalMilliseconds` (nil leaves the interval to BlueZ).
    func exportAdvertisement(at path: String, appleData: [UInt8], intervalMilliseconds: UInt32?) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let interval = intervalMilliseconds ?? 0
        let code = waymark_advert_export(bus, path, appleData, appleData.count, interval, interval, &error, error.count)
        guard code == 0 else { throw Failure(code: code, description: Self.text(error)) }
    }

    /// Asks the adapter to advertise the exported object; the answer comes as a message
    /// (``Message/advertisementRegistered`` or ``Message/advertisementRefused(_:)``).
    func registerAdvertisement(on adapterPath: String) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let code = waymark_advert_register(bus, adapterPath, &error, error.count)
        guard code == 0 else { throw Failure(code: code, description: Self.text(error)) }
    }

    /// Asks the adapter to stop advertising the exported object, and waits for the answer.
    func unregisterAdvertisement(on adapterPath: String, timeout: Duration? = nil) throws(Failure) {
        var error = [CChar](repeating: 0, count: 512)
        let microseconds = timeout.map { UInt64(clamping: max($0.nanoseconds / 1000, 1)) } ?? 0
        let code = waymark_advert_unregister(bus, adapterPath, microseconds, &error, error.count)
        guard code == 0 else { throw Failure(code: code, description: Self.text(error)) }
    }

    /// Waits for input, a signal on `wakeFD`, or `timeout`, and reads what came.
    func run(wakeFD: Int32, timeout: Duration) throws(Failure) {
        let microseconds = UInt64(clamping: max(timeout.nanoseconds, 0) / 1000)
        let code = waymark_bus_run(bus, wakeFD, microseconds)
        guard code == 0 else {
            throw Failure(
                code: code,
                description: "the connection to the bus was lost: \(SystemError.reason(abs(code)))"
            )
        }
    }

    /// The oldest message not yet read.
    func next() -> Message? {
        var event = waymark_bluez_event()
        while waymark_bus_next(bus, &event) != 0 {
            if let message = message(event) { return message }
        }
        return nil
    }

    private func message(_ event: waymark_bluez_event) -> Message? {
        let path = withUnsafeBytes(of: event.path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let powered: Bool? = event.powered < 0 ? nil : event.powered != 0
        switch Int(event.kind) {
        case Int(WAYMARK_BLUEZ_ADAPTER.rawValue): return .adapter(path: path, powered: powered)
        case Int(WAYMARK_BLUEZ_ADAPTER_POWERED.rawValue):
            return powered.map { .adapterPowered(path: path, powered: $0) }
        case Int(WAYMARK_BLUEZ_ADAPTER_REMOVED.rawValue): return .adapterRemoved(path: path)
        case Int(WAYMARK_BLUEZ_DEVICE.rawValue), Int(WAYMARK_BLUEZ_DEVICE_KNOWN.rawValue):
            let length = Int(event.apple_length)
            let apple = length < 0 ? nil : withUnsafeBytes(of: event.apple) { Array($0.prefix(length)) }
            return .device(
                path: path,
                rssi: event.has_rssi != 0 ? Int(event.rssi) : nil,
                apple: apple,
                known: Int(event.kind) == Int(WAYMARK_BLUEZ_DEVICE_KNOWN.rawValue)
            )
        case Int(WAYMARK_BLUEZ_DEVICE_REMOVED.rawValue): return .deviceRemoved(path: path)
        case Int(WAYMARK_BLUEZ_SERVICE_GONE.rawValue): return .serviceGone
        case Int(WAYMARK_BLUEZ_SERVICE_BACK.rawValue): return .serviceBack
        case Int(WAYMARK_BLUEZ_ADVERT_REGISTERED.rawValue): return .advertisementRegistered
        case Int(WAYMARK_BLUEZ_ADVERT_REFUSED.rawValue):
            return .advertisementRefused(String(cString: waymark_advert_error(bus)))
        case Int(WAYMARK_BLUEZ_ADVERT_RELEASED.rawValue): return .advertisementReleased
        default: return nil
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import WaymarkBluetooth
import WaymarkCore

/// `[beacons]`: iBeacon regions monitored and ranged through BlueZ (docs/regions.md, "Beacon regions").
public struct BeaconsSettings: Sendable, Equatable {
    /// Whether the agent scans at all (`enabled`; off by default: scanning costs power, and a board may have no
    /// Bluetooth).
    public var enabled = false
    /// The adapter's name (`hci0`); nil takes the first powered one (`adapter = ""`).
    public var adapter: String?
    /// A D-Bus address; nil is the system bus (`bus = "system"`, which honours `DBUS_SYSTEM_BUS_ADDRESS`).
    public var bus: String?
    /// The monitor's and the ranger's rules (`exit_after`, `ranging`, `ranging_interval`, `smoothing_window`).
    public var monitoring = BeaconSettings()
    /// The paused agent's duty cycle: `scan_window` of every `scan_interval` (`scan_window = scan_interval` scans
    /// all the time).
    public var scanInterval: Duration = .seconds(60)
    public var scanWindow: Duration = .seconds(10)
    /// `[beacons.advertise]`: the board as an iBeacon.
    public var advertise = AdvertiseSettings()

    public init() {}

    /// What the live source needs.
    public var scanner: BlueZConfiguration {
        BlueZConfiguration(busAddress: bus, adapter: adapter, scanInterval: scanInterval, scanWindow: scanWindow)
    }
}

extension BeaconsSettings {
    /// Reads `[beacons]`.
    mutating func read(from section: inout SectionReader) {
        section.read("enabled", .boolean, into: &enabled)
        var name = adapter ?? ""
        section.read(
            "adapter",
            .string("an adapter's name such as hci0, or \"\" for the first powered one") {
                $0.isEmpty || ($0.utf8.count <= 32 && $0.utf8.allSatisfy { Self.isNameByte($0) })
            },
            into: &name
        )
        adapter = name.isEmpty ? nil : name
        var address = bus ?? "system"
        section.read(
            "bus",
            .string("\"system\" or a D-Bus address such as unix:path=/run/dbus/system_bus_socket") {
                $0 == "system" || ($0.contains(":") && $0.contains("="))
            },
            into: &address
        )
        bus = address == "system" ? nil : address
        section.read("exit_after", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &monitoring.exitAfter)
        section.read("ranging", .boolean, into: &monitoring.ranging)
        section.read(
            "ranging_interval",
            .duration(moreThan: .zero, atMost: .seconds(3600)),
            into: &monitoring.rangingInterval
        )
        section.read(
            "smoothing_window",
            .duration(atMost: .seconds(60), zero: "the latest sighting alone"),
            into: &monitoring.smoothingWindow
        )
        section.read("scan_interval", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &scanInterval)
        section.read("scan_window", .duration(moreThan: .zero, atMost: .seconds(3600)), into: &scanWindow)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}

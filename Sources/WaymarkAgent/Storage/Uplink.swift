import WaymarkUplink

/// A network sink as the configuration makes it: its transport, its delivery rules and its daily byte budget.
struct Uplink {
    var transport: any UplinkTransport
    var settings: DeliveryPolicy.Settings
    var maxBytesPerDay: Int64?
}

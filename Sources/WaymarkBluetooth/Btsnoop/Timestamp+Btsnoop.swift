import WaymarkCore

extension Timestamp {
    /// 1970-01-01T00:00:00Z in btsnoop's time, microseconds since midnight, 1 January 0 AD "nominal Gregorian".
    ///
    /// The btsnoop format's description gives `0x00E03AB44A676000` as the equivalent epoch of midnight,
    /// 1 January 2000, not 1970: BlueZ subtracts it and adds 946,684,800 s (`src/shared/btsnoop.c`), Wireshark
    /// subtracts this value (`KUnixTimeBase` in `wiretap/btsnoop.c`), and `btmon -T -r` shows the same dates.
    public static let btsnoopUnixEpoch: Int64 = 0x00DC_DDB3_0F2F_8000
    /// 2000-01-01T00:00:00Z in btsnoop's time, the equivalent epoch the format's description gives.
    public static let btsnoopEpoch2000: Int64 = 0x00E0_3AB4_4A67_6000

    /// The instant of a btsnoop record's timestamp: `microseconds` since midnight, 1 January 0 AD; nil when it
    /// lies too far before that for `Int64` microseconds since 1970.
    public init?(btsnoopMicroseconds microseconds: Int64) {
        let (unix, overflow) = microseconds.subtractingReportingOverflow(Self.btsnoopUnixEpoch)
        guard !overflow else { return nil }
        var (seconds, remainder) = unix.quotientAndRemainder(dividingBy: 1_000_000)
        if remainder < 0 {
            seconds -= 1
            remainder += 1_000_000
        }
        self.init(seconds: seconds, nanoseconds: Int32(remainder * 1000))
    }

    /// The instant as a btsnoop record's timestamp, its nanoseconds rounded down to the microsecond; nil beyond
    /// the years btsnoop's `Int64` microseconds hold (about 292,000 years from the year 0).
    public var btsnoopMicroseconds: Int64? {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (unix, sumOverflow) = scaled.addingReportingOverflow(Int64(nanoseconds / 1000))
        let (value, epochOverflow) = unix.addingReportingOverflow(Self.btsnoopUnixEpoch)
        return overflow || sumOverflow || epochOverflow ? nil : value
    }
}

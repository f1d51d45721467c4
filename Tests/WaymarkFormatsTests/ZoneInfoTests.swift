import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkFormats

/// The TZif reader against the system's zone files (Debian's tzdata) and Python's `zoneinfo` reading the same
/// files: every hour of years in the data and beyond its last transition (the footer's rule), each change of
/// offset to the second, and seeded instants from 1800 to 2400.
@Suite struct ZoneInfoTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham",
        "America/Sao_Paulo", "Africa/Casablanca", "UTC", "Europe/Dublin", "America/St_Johns",
    ]

    static func zone(_ name: String) throws -> ZoneInfo {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))
        return try ZoneInfo(tzif: bytes, name: name)
    }

    /// 00:00 UTC on January 1 of `year`.
    static func newYear(_ year: Int) -> Int64 {
        var components = DateComponents()
        components.year = year
        components.month = 1
        components.day = 1
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int64(calendar.date(from: components)!.timeIntervalSince1970)
    }

    /// The instants a zone is tested at: hourly through years inside and beyond the data, the second before, at
    /// and after each change found, and seeded random instants.
    static func instants(in zone: ZoneInfo, seed: UInt64) -> [Int64] {
        var instants: [Int64] = []
        for year in [1916, 1970, 2010, 2026, 2037, 2038, 2061, 2100, 2399] {
            let start = newYear(year)
            let end = newYear(year + 1)
            var previous = zone.localTime(at: start)
            var hour = start
            while hour < end {
                instants.append(hour)
                let next = hour + 3600
                let current = zone.localTime(at: next)
                if current != previous {
                    // The first second of the new local time.
                    var low = hour
                    var high = next
                    while high - low > 1 {
                        let middle = (low + high) / 2
                        if zone.localTime(at: middle) == previous { low = middle } else { high = middle }
                    }
                    instants += [high - 1, high, high + 1]
                }
                previous = current
                hour = next
            }
        }
        var generator = SplitMix64(seed: seed)
        let range = newYear(1800)..<newYear(2400)
        for _ in 0..<2000 { instants.append(Int64.random(in: range, using: &generator)) }
        return instants
    }

    @Test("offset and abbreviation equal Python's zoneinfo", arguments: zones)
    func matchesZoneinfo(name: String) throws {
        let zone = try Self.zone(name)
        let instants = Self.instants(in: zone, seed: UInt64(name.utf8.reduce(20) { $0 &* 31 &+ UInt64($1) }))
        let expected = try ZoneInfoOracle.localTimes(instants.map { (name, $0) })
        try #require(expected.count == instants.count)
        var mismatches: [String] = []
        for (instant, oracle) in zip(instants, expected) {
            let ours = zone.localTime(at: instant)
            if ours.utcOffsetSeconds != oracle.offset || ours.abbreviation != oracle.abbreviation {
                mismatches.append("\(instant): \(ours.utcOffsetSeconds) \(ours.abbreviation), zoneinfo \(oracle)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(instants.count): \(mismatches.prefix(5))")
        #expect(instants.count > 9 * 8760)
    }

    @Test("beyond the last transition, the footer's rule: southern summers span the new year")
    func footerRule() throws {
        let sydney = try Self.zone("Australia/Sydney")
        #expect(sydney.footer?.daylightSaving?.abbreviation == "AEDT")
        // 2100-01-01T00:00Z is summer in Sydney, 2100-07-01 winter.
        #expect(sydney.localTime(at: Self.newYear(2100)).abbreviation == "AEDT")
        #expect(sydney.localTime(at: Self.newYear(2100)).utcOffsetSeconds == 39_600)
        #expect(sydney.localTime(at: Self.newYear(2100) + 181 * 86_400).utcOffsetSeconds == 36_000)
        let kolkata = try Self.zone("Asia/Kolkata")
        #expect(
            kolkata.localTime(at: Self.newYear(2300))
                == LocalTimeType(utcOffsetSeconds: 19_800, isDaylightSaving: false, abbreviation: "IST")
        )
    }
}

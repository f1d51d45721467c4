import Testing
import WaymarkCore

/// A ``DeclinationCache`` behind a reference, so that lookups (mutating calls) can sit inside `#expect`.
private final class CacheBox {
    private var cache = DeclinationCache()

    var refreshes: Int { cache.refreshes }

    func lookup(at coordinate: Coordinate, altitudeHAE: Double?, time: Timestamp) -> MagneticDeclination? {
        cache.declination(at: coordinate, altitudeHAE: altitudeHAE, time: time)
    }
}

@Suite("The declination cache of the heading pipeline")
struct MagneticCacheTests {
    let model = MagneticModel.wmm2025
    /// 2026-04-20T07:00:00Z: five hours from the 12:00 UTC the cache evaluates the day at.
    static let morning = Timestamp(seconds: 1_776_668_400)

    /// The declination error bound of DeclinationCache's documentation, on a grid: every 1.3° of latitude
    /// from -79.95° to 79.85° and every 0.3° of longitude (three points per cell along a row), at 180 m,
    /// which the cache evaluates at 0 m, five hours from the cache's 12:00 UTC. Points where the direct
    /// synthesis is in the caution or blackout zone (near the magnetic poles) are left out. The worst
    /// difference on this grid is 0.017° (73.45° N 71.55° E, where the declination also changes fastest
    /// with height), against a bound of 0.05°.
    @Test("within 0.05° of a direct synthesis at |latitude| < 80°, away from the magnetic poles")
    func errorBound() throws {
        let cache = CacheBox()
        var worst = (error: 0.0, coordinate: Coordinate(latitude: 0, longitude: 0))
        var checked = 0
        var latitude = -79.95
        while latitude < 80 {
            var longitude = -179.85
            while longitude < 180 {
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                let direct = try #require(model.field(at: coordinate, altitudeHAE: 180, time: Self.morning))
                let cached = try #require(cache.lookup(at: coordinate, altitudeHAE: 180, time: Self.morning))
                if direct.zone == .normal {
                    let error = abs((cached.degrees - direct.declination).remainder(dividingBy: 360))
                    #expect(error <= 0.05, "\(coordinate): cached \(cached.degrees), direct \(direct.declination)")
                    if error > worst.error { worst = (error, coordinate) }
                    checked += 1
                }
                longitude += 0.3
            }
            latitude += 1.3
        }
        #expect(checked > 140_000)
        // The grid must reach where interpolating the angle itself would fail the bound: errors of 0.01° show.
        #expect(worst.error > 0.01)
        print("declination cache: \(checked) points, worst difference \(worst.error)° at \(worst.coordinate)")
    }

    @Test("at a corner of a cell, at 0 m and 12:00 UTC, the cache gives exactly the synthesis there")
    func cornersAreExact() throws {
        let cache = CacheBox()
        let noon = try #require(Timestamp(iso8601: "2026-04-20T12:00:00Z"))
        for (latitude, longitude) in [(47.0, 12.0), (-34.0, -58.0), (0.0, 0.0), (79.0, -179.0), (-90.0, 17.0)] {
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            let field = try #require(model.field(at: coordinate, altitudeHAE: 0, time: noon))
            let cached = try #require(cache.lookup(at: coordinate, altitudeHAE: nil, time: noon))
            #expect(abs(cached.degrees - field.declination) < 1e-9, "\(coordinate)")
            #expect(abs(cached.horizontalIntensity - field.horizontalIntensity) < 1e-6, "\(coordinate)")
            #expect(cached.zone == field.zone && cached.isWithinValidity)
            #expect(abs(cached.uncertainty - field.declinationUncertainty) < 1e-9)
        }
    }

    @Test("the model is evaluated again only for a new cell, height band or UTC day")
    func refreshes() throws {
        let cache = CacheBox()
        let time = Self.morning
        func look(_ latitude: Double, _ longitude: Double, _ altitude: Double?, _ time: Timestamp) throws {
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            _ = try #require(cache.lookup(at: coordinate, altitudeHAE: altitude, time: time))
        }
        #expect(cache.refreshes == 0)
        try look(48.1, 11.2, 520, time)
        #expect(cache.refreshes == 1)
        // A drive within the cell 48 ... 49° N, 11 ... 12° E, up to 740 m and over the rest of the day.
        for step in 0..<100 {
            try look(48.01 + Double(step) * 0.0098, 11.01 + Double(step) * 0.0098, 260 + Double(step) * 4.8, time)
        }
        try look(48.999_999, 11.999_999, 749, try #require(Timestamp(iso8601: "2026-04-20T23:59:59.999Z")))
        #expect(cache.refreshes == 1)
        try look(49.0, 11.5, 500, time)  // north into the next cell
        #expect(cache.refreshes == 2)
        try look(49.5, 12.0, 500, time)  // east into the next
        #expect(cache.refreshes == 3)
        try look(49.5, 12.5, 750, time)  // up into the next band: 750 m rounds to the band of 1000 m
        #expect(cache.refreshes == 4)
        try look(49.5, 12.5, 750, try #require(Timestamp(iso8601: "2026-04-21T00:00:00Z")))  // the next day
        #expect(cache.refreshes == 5)
        // 12.5° E and 372.5° E are the same place; -180° and 180° the same meridian.
        try look(49.5, 372.5, 750, try #require(Timestamp(iso8601: "2026-04-21T18:00:00Z")))
        #expect(cache.refreshes == 5)
        try look(10, 180, nil, time)
        try look(10.5, -179.5, nil, time)
        #expect(cache.refreshes == 7)
        try look(10.5, 180.0 - 1e-9, nil, time)
        #expect(cache.refreshes == 8)
    }

    @Test("the interpolated value changes smoothly across a cell's edge")
    func continuousAcrossEdges() throws {
        let cache = CacheBox()
        let below = try #require(
            cache.lookup(at: .init(latitude: 52.999_999_9, longitude: -1.3), altitudeHAE: 0, time: Self.morning)
        )
        let above = try #require(
            cache.lookup(at: .init(latitude: 53.000_000_1, longitude: -1.3), altitudeHAE: 0, time: Self.morning)
        )
        #expect(cache.refreshes == 2)
        #expect(abs(below.degrees - above.degrees) < 1e-6)
    }

    @Test("at the geographic poles and across the antimeridian it still answers")
    func polesAndAntimeridian() throws {
        let cache = CacheBox()
        for (latitude, longitude) in [(90.0, 0.0), (90, 179.9), (-90, -33), (89.99, 45), (-65.5, 180), (-65.5, -180)] {
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            let cached = try #require(cache.lookup(at: coordinate, altitudeHAE: 0, time: Self.morning))
            let field = try #require(model.field(at: coordinate, altitudeHAE: 0, time: Self.morning))
            #expect(abs((cached.degrees - field.declination).remainder(dividingBy: 360)) < 0.5, "\(coordinate)")
        }
    }

    @Test("blackout near the north magnetic pole, validity outside 2025 ... 2030")
    func zoneAndValidity() throws {
        let cache = CacheBox()
        let pole = Coordinate(latitude: 85.5, longitude: 136)
        let atPole = try #require(cache.lookup(at: pole, altitudeHAE: 0, time: Self.morning))
        #expect(atPole.zone == .blackout)
        let boulder = Coordinate(latitude: 40, longitude: -105)
        let now = try #require(cache.lookup(at: boulder, altitudeHAE: 1_655, time: Self.morning))
        #expect(now.zone == .normal && now.isWithinValidity)
        let late = try #require(Timestamp(iso8601: "2030-01-01T00:00:00Z"))
        let lastDay = try #require(Timestamp(iso8601: "2029-12-31T23:59:59Z"))
        let early = try #require(Timestamp(iso8601: "2024-12-31T23:59:59Z"))
        for (time, valid) in [(late, false), (lastDay, true), (early, false)] {
            let value = try #require(cache.lookup(at: boulder, altitudeHAE: 1_655, time: time))
            #expect(value.isWithinValidity == valid, "\(time)")
        }
    }

    @Test("bad input gives nil and keeps the cell")
    func badInput() throws {
        let cache = CacheBox()
        let time = Self.morning
        let good = Coordinate(latitude: -33.9, longitude: 18.4)
        let value = try #require(cache.lookup(at: good, altitudeHAE: 10, time: time))
        #expect(cache.lookup(at: .init(latitude: .nan, longitude: 18.4), altitudeHAE: 10, time: time) == nil)
        #expect(cache.lookup(at: .init(latitude: 90.5, longitude: 18.4), altitudeHAE: 10, time: time) == nil)
        #expect(cache.lookup(at: .init(latitude: -33.9, longitude: .infinity), altitudeHAE: 10, time: time) == nil)
        #expect(cache.lookup(at: good, altitudeHAE: .infinity, time: time) == nil)
        #expect(cache.lookup(at: good, altitudeHAE: -2_000_000, time: time) == nil)
        #expect(cache.lookup(at: good, altitudeHAE: 10, time: Timestamp(seconds: .max)) == nil)
        #expect(cache.lookup(at: good, altitudeHAE: 10, time: Timestamp(seconds: .min)) == nil)
        #expect(cache.refreshes == 1)
        #expect(cache.lookup(at: good, altitudeHAE: .nan, time: time) == value)
        #expect(cache.refreshes == 1)
    }
}

import Testing
import WaymarkCore

@Suite struct HeadingFilterTests {
    static let start = Timestamp(seconds: 1_764_000_000)  // 2025-11-24
    /// Regensburg, where WMM2025 puts the declination near +4.9°.
    static let latitude = 49.0
    static let longitude = 12.1

    /// One input of a table: a fix (with a measured speed and course) or an attitude reading, at a second.
    enum Input {
        case fix(second: Double, speed: Double?, course: Double?)
        case attitude(second: Double, heading: Double?, magnetic: Double? = nil)
    }

    struct Output: Equatable, CustomStringConvertible {
        var trueHeading: Double
        var valid: Bool
        var source: Heading.Source
        var description: String { "\(trueHeading)\(valid ? "" : " invalid") \(source)" }
    }

    static func run(_ inputs: [Input], _ settings: HeadingSettings) -> (outputs: [Output], steps: [HeadingFilter.Step])
    {
        var filter = HeadingFilter(settings: settings)
        var steps: [HeadingFilter.Step] = []
        for input in inputs {
            switch input {
            case .fix(let second, let speed, let course):
                let location = Location(
                    time: start.advanced(by: .seconds(second)),
                    latitude: latitude,
                    longitude: longitude,
                    altitudeHAE: 400,
                    speed: speed,
                    course: course
                )
                steps.append(filter.location(location, arrival: instant(second)))
            case .attitude(let second, let heading, let magnetic):
                let attitude = Attitude(heading: heading, magneticHeading: magnetic)
                steps.append(filter.attitude(attitude, arrival: instant(second), time: start))
            }
        }
        let outputs = steps.compactMap { step in
            step.heading.map {
                Output(trueHeading: ($0.trueHeading * 100).rounded() / 100, valid: $0.isValid, source: $0.source)
            }
        }
        return (outputs, steps)
    }

    static func instant(_ second: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: Int64(second * 1e9) + 5_000_000_000)
    }

    static func courses(_ values: [Double]) -> [Input] {
        values.enumerated().map { .fix(second: Double($0), speed: 10, course: $1) }
    }

    @Test("filter = 5 across north: 358 → 2 → 6 turns by 4° and 8°, never through 180°")
    func acrossNorth() {
        let settings = HeadingSettings(enabled: true, source: .course, filter: 5)
        let (outputs, _) = Self.run(Self.courses([358, 2, 6, 359, 353, 10]), settings)
        // 358 → 2 is 4° (held), → 6 is 8°; 6 → 359 is 7°; → 353 is 6°; → 10 is 17°.
        #expect(outputs.map(\.trueHeading) == [358, 6, 359, 353, 10])
    }

    struct FilterRow: Sendable, CustomTestStringConvertible {
        var filter: Double
        var courses: [Double]
        var delivered: [Double]
        var testDescription: String { "filter \(filter): \(courses) → \(delivered)" }
    }

    static let filterRows: [FilterRow] = [
        .init(filter: 0, courses: [10, 10, 10.5], delivered: [10, 10, 10.5]),
        .init(filter: 1, courses: [10, 10.5, 11, 11.9], delivered: [10, 11]),
        .init(filter: 1, courses: [359.6, 0.4, 0.7], delivered: [359.6, 0.7]),
        .init(filter: 30, courses: [0, 20, 40, 60, 80], delivered: [0, 40, 80]),
        .init(filter: 90, courses: [0, 180, 270], delivered: [0, 180, 270]),
    ]

    @Test(arguments: filterRows)
    func headingFilter(_ row: FilterRow) {
        let settings = HeadingSettings(enabled: true, source: .course, filter: row.filter)
        #expect(Self.run(Self.courses(row.courses), settings).outputs.map(\.trueHeading) == row.delivered)
    }

    @Test("the course is a heading only above min_speed; stopping marks the heading invalid once")
    func courseBelowMinimumSpeed() {
        let inputs: [Input] = [
            .fix(second: 0, speed: 1.5, course: 90), .fix(second: 1, speed: 5, course: 90),
            .fix(second: 2, speed: 1, course: 200), .fix(second: 3, speed: 0.5, course: 300),
            .fix(second: 4, speed: nil, course: nil), .fix(second: 5, speed: 6, course: 95),
        ]
        let (outputs, _) = Self.run(inputs, HeadingSettings(enabled: true))
        #expect(
            outputs == [
                Output(trueHeading: 90, valid: true, source: .course),
                Output(trueHeading: 90, valid: false, source: .course),
                Output(trueHeading: 95, valid: true, source: .course),
            ]
        )
    }

    @Test("auto prefers fresh attitude readings, then falls back to the course")
    func autoSource() {
        let inputs: [Input] = [
            .fix(second: 0, speed: 10, course: 100), .attitude(second: 0.5, heading: 120),
            .fix(second: 1, speed: 10, course: 100), .fix(second: 5, speed: 10, course: 100),
            .fix(second: 6, speed: 10, course: 101),
        ]
        let (outputs, _) = Self.run(inputs, HeadingSettings(enabled: true, maxAge: .seconds(5)))
        #expect(
            outputs == [
                Output(trueHeading: 100, valid: true, source: .course),
                Output(trueHeading: 120, valid: true, source: .attitude),
                Output(trueHeading: 101, valid: true, source: .course),
            ]
        )
    }

    @Test("source = attitude: a stale sensor makes the heading invalid, once")
    func staleAttitude() {
        let inputs: [Input] = [
            .fix(second: 0, speed: 10, course: 100), .attitude(second: 1, heading: 45),
            .fix(second: 3, speed: 10, course: 100), .fix(second: 7, speed: 10, course: 100),
            .fix(second: 8, speed: 10, course: 100),
        ]
        let (outputs, _) = Self.run(inputs, HeadingSettings(enabled: true, source: .attitude, maxAge: .seconds(5)))
        #expect(
            outputs == [
                Output(trueHeading: 45, valid: true, source: .attitude),
                Output(trueHeading: 45, valid: false, source: .attitude),
            ]
        )
    }

    @Test("magnetic = true - declination; a magnetic-only sensor gives true = -1 until a position is known")
    func trueAndMagnetic() throws {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true, filter: 0))
        let before = try #require(
            filter.attitude(Attitude(magneticHeading: 10), arrival: Self.instant(0), time: Self.start).heading
        )
        #expect(before.trueHeading == -1 && before.magnetic == 10 && before.declination == nil)
        let fix = Location(time: Self.start, latitude: Self.latitude, longitude: Self.longitude)
        _ = filter.location(fix, arrival: Self.instant(1))
        let after = try #require(
            filter.attitude(Attitude(magneticHeading: 10), arrival: Self.instant(2), time: Self.start).heading
        )
        let declination = try #require(after.declination)
        #expect(declination > 4 && declination < 6, "Regensburg, WMM2025: \(declination)")
        #expect(abs(after.trueHeading - (10 + declination)) < 1e-9)
        let gyro = try #require(
            filter.attitude(Attitude(heading: 2), arrival: Self.instant(3), time: Self.start).heading
        )
        let magnetic = try #require(gyro.magnetic)
        #expect(abs(magnetic - (360 + 2 - declination)) < 1e-9, "wrapped below 0")
        #expect(gyro.accuracy == nil, "the sensor reports no accuracy: unknown, not the declination's alone")
    }

    @Test("raw sensor units are rejected; one failure, at the first, not one per reading")
    func badAttitudeData() {
        let inputs = (0..<12).map { Input.attitude(second: Double($0), heading: 14_000 + Double($0)) }
        let (outputs, steps) = Self.run(inputs, HeadingSettings(enabled: true))
        #expect(outputs.isEmpty)
        #expect(steps.allSatisfy { $0.rejectedReading })
        #expect(steps.compactMap(\.failure).count == 1)
        #expect(steps[0].failure?.contains("14000") == true)
    }

    @Test("a source that alternates good and bad readings is reported at most once per failure interval")
    func failureInterval() {
        let interval = HeadingFilter.failureInterval.secondsValue
        let inputs: [Input] = [
            .attitude(second: 0, heading: 999), .attitude(second: 1, heading: 90), .attitude(second: 2, heading: 999),
            .attitude(second: interval + 3, heading: 999),
        ]
        let (_, steps) = Self.run(inputs, HeadingSettings(enabled: true))
        #expect(steps.map { $0.failure != nil } == [true, false, false, true])
    }

    struct ValueRow: Sendable, CustomTestStringConvertible {
        var value: Double
        var heading: Double?
        var testDescription: String { "\(value) → \(heading.map { "\($0)" } ?? "rejected")" }
    }

    static let valueRows: [ValueRow] = [
        .init(value: 0, heading: 0), .init(value: -0.0, heading: 0), .init(value: 360, heading: 0),
        .init(value: 359.99, heading: 359.99), .init(value: -1, heading: nil), .init(value: 360.0001, heading: nil),
        .init(value: .nan, heading: nil), .init(value: .infinity, heading: nil),
    ]

    @Test("attitude values: 0 ... 360 are headings (360 is 0), anything else is rejected", arguments: valueRows)
    func attitudeValues(_ row: ValueRow) {
        let (outputs, steps) = Self.run([.attitude(second: 0, heading: row.value)], HeadingSettings(enabled: true))
        #expect(outputs.map(\.trueHeading) == (row.heading.map { [$0] } ?? []))
        #expect(steps[0].rejectedReading == (row.heading == nil))
    }

    @Test("a magnetic heading is used when the true one is out of range")
    func magneticFallback() throws {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true))
        let step = filter.attitude(
            Attitude(heading: 14_000, magneticHeading: 42),
            arrival: Self.instant(0),
            time: Self.start
        )
        let heading = try #require(step.heading)
        #expect(heading.magnetic == 42 && !step.rejectedReading)
    }

    @Test("without readings for max_age the heading goes invalid once; a new reading makes it valid again")
    func expiry() throws {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true, source: .attitude, maxAge: .seconds(5)))
        _ = filter.attitude(Attitude(heading: 45), arrival: Self.instant(0), time: Self.start)
        #expect(filter.expire(at: Self.instant(5), time: Self.start).heading == nil)
        let stale = try #require(filter.expire(at: Self.instant(5.5), time: Self.start).heading)
        #expect(stale.accuracy == -1 && stale.trueHeading == 45)
        #expect(filter.expire(at: Self.instant(30), time: Self.start).heading == nil, "once")
        let back = try #require(
            filter.attitude(Attitude(heading: 45.2), arrival: Self.instant(31), time: Self.start).heading
        )
        #expect(back.isValid, "valid again, though within the 1° filter")
    }

    @Test("readings held by the filter keep the heading fresh")
    func heldReadingsAreFresh() {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true, source: .attitude, maxAge: .seconds(5)))
        for second in 0..<20 {
            _ = filter.attitude(Attitude(heading: 45), arrival: Self.instant(Double(second)), time: Self.start)
            #expect(filter.expire(at: Self.instant(Double(second) + 0.5), time: Self.start).heading == nil)
        }
    }

    @Test("losing the fix invalidates a course heading; losing gpsd invalidates any")
    func lostSources() throws {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true))
        let fix = Location(time: Self.start, latitude: Self.latitude, longitude: Self.longitude, speed: 10, course: 80)
        _ = try #require(filter.location(fix, arrival: Self.instant(0)).heading)
        #expect(try #require(filter.fixLost(time: Self.start).heading).accuracy == -1)
        _ = try #require(filter.attitude(Attitude(heading: 81), arrival: Self.instant(1), time: Self.start).heading)
        #expect(filter.fixLost(time: Self.start).heading == nil, "an attitude sensor needs no fix")
        #expect(try #require(filter.sourceLost(time: Self.start).heading).accuracy == -1)
    }

    @Test("smoothing is a circular mean: 350° and 10° average to 0°, not 180°")
    func smoothing() {
        let settings = HeadingSettings(enabled: true, source: .course, filter: 0, smoothing: .seconds(3))
        let (outputs, _) = Self.run(Self.courses([350, 10, 350, 10]), settings)
        // The window holds the readings of the last 3 s: 350; 350, 10; 350, 10, 350 (atan2(-sin 10°, 3 cos 10°),
        // not their arithmetic mean 236.67); 350, 10, 350, 10.
        #expect(outputs.map(\.trueHeading) == [350, 0, 356.64, 0], "\(outputs)")
    }

    @Test("in the blackout zone the accuracy is -1, and the filter still holds small turns")
    func blackoutZone() throws {
        var filter = HeadingFilter(settings: HeadingSettings(enabled: true, source: .course))
        // Near the north magnetic pole (WMM2025: about 85.8° N 139° E), H is under 2000 nT.
        var delivered: [Heading] = []
        for step in 0..<12 {
            let fix = Location(
                time: Self.start.advanced(by: .seconds(step)),
                latitude: 86,
                longitude: 140,
                speed: 5,
                course: 90 + Double(step) * 0.05
            )
            if let heading = filter.location(fix, arrival: Self.instant(Double(step))).heading {
                delivered.append(heading)
            }
        }
        #expect(delivered.count == 1)
        #expect(delivered.first?.accuracy == -1)
    }
}

import Testing
import WaymarkCore

@Suite struct LocationFilterTests {
    static let start = Timestamp(seconds: 1_700_000_000)
    /// Metres per degree of latitude near 49° N, close enough to place test fixes.
    static let metresPerDegree = 111_200.0

    /// A fix `second` seconds into the drive, `north` metres north of 49° N 12° E.
    static func fix(
        _ second: Double,
        north: Double = 0,
        accuracy: Double? = 5,
        speed: Double? = nil,
        course: Double? = nil,
        mode: FixMode = .threeD
    ) -> Location {
        Location(
            time: start.advanced(by: .seconds(second)),
            latitude: 49 + north / metresPerDegree,
            longitude: 12,
            horizontalAccuracy: accuracy,
            speed: speed,
            course: course,
            mode: mode
        )
    }

    /// Runs fixes through a filter as a live stream: each arrives 0.2 s after its GPS time.
    static func verdicts(_ fixes: [Location], _ settings: LocationSettings) -> [LocationVerdict] {
        var filter = LocationFilter(settings: settings)
        return fixes.map { filter.consider($0, arriving: 0.2) }
    }

    static func delivered(_ fixes: [Location], _ settings: LocationSettings) -> [Int] {
        verdicts(fixes, settings).enumerated().compactMap { index, verdict in
            if case .deliver = verdict { index } else { nil }
        }
    }

    @Test func withoutTriggersEveryFixIsDelivered() {
        let fixes = (0..<5).map { Self.fix(Double($0)) }
        #expect(Self.verdicts(fixes, .init()) == [.deliver(.first)] + Array(repeating: .deliver(.everyFix), count: 4))
    }

    @Test("distance_filter delivers once the distance from the last delivery reaches it")
    func distanceFilter() {
        // 30 m per second northwards: 0, 30, 60, 90, 120 (delivered: 120 m), ... 240 (delivered), ...
        let fixes = (0..<10).map { Self.fix(Double($0), north: Double($0) * 30) }
        let verdicts = Self.verdicts(fixes, LocationSettings(distanceFilter: 100))
        #expect(Self.delivered(fixes, LocationSettings(distanceFilter: 100)) == [0, 4, 8])
        #expect(verdicts[1] == .hold(.filteredDistance))
        #expect(verdicts[4] == .deliver(.distance))
    }

    @Test("a displacement within the new fix's accuracy is jitter, not movement")
    func jitterWithinAccuracy() {
        // A parked receiver reporting 45 m accuracy wanders 30 m, then the vehicle really moves 60 m.
        let fixes = [
            Self.fix(0, accuracy: 45), Self.fix(1, north: 30, accuracy: 45), Self.fix(2, north: 60, accuracy: 45),
        ]
        let verdicts = Self.verdicts(fixes, LocationSettings(distanceFilter: 20))
        #expect(verdicts == [.deliver(.first), .hold(.filteredDistance), .deliver(.distance)])
    }

    @Test("the jitter allowance never exceeds three times the distance filter")
    func jitterLimit() {
        // A fix 1 km inaccurate still counts a move of 300 m or more.
        let fixes = [0.0, 250, 310, 500].enumerated().map { Self.fix(Double($0), north: $1, accuracy: 1000) }
        #expect(Self.delivered(fixes, LocationSettings(distanceFilter: 100)) == [0, 2])
    }

    struct AccuracyRow: Sendable, CustomTestStringConvertible {
        var desired: DesiredAccuracy
        var accuracy: Double?
        var mode: FixMode = .threeD
        var accepted: Bool
        var testDescription: String { "\(desired) with h_acc \(accuracy.map { "\($0)" } ?? "unknown"): \(accepted)" }
    }

    static let accuracyRows: [AccuracyRow] = [
        .init(desired: .best, accuracy: 900, accepted: true),
        .init(desired: .best, accuracy: nil, accepted: true),
        .init(desired: .bestForNavigation, accuracy: 40, accepted: true),
        .init(desired: .bestForNavigation, accuracy: 40, mode: .twoD, accepted: false),
        .init(desired: .bestForNavigation, accuracy: nil, accepted: false),
        .init(desired: .meters(10), accuracy: 10, accepted: true),
        .init(desired: .meters(10), accuracy: 10.01, accepted: false),
        .init(desired: .meters(100), accuracy: nil, accepted: false),
        .init(desired: .meters(1000), accuracy: nil, accepted: true),
        .init(desired: .meters(3000), accuracy: 2999, mode: .twoD, accepted: true),
    ]

    @Test(arguments: accuracyRows)
    func desiredAccuracy(_ row: AccuracyRow) {
        let settings = LocationSettings(desiredAccuracy: row.desired)
        let verdict = Self.verdicts([Self.fix(0, accuracy: row.accuracy, mode: row.mode)], settings)
        #expect(verdict == [row.accepted ? .deliver(.first) : .hold(.inaccurate)])
    }

    @Test func theBestInaccurateFixIsRememberedUntilAnAccurateOne() {
        var filter = LocationFilter(settings: LocationSettings(desiredAccuracy: .meters(20)))
        for (second, accuracy) in [(0.0, 80.0), (1, 45), (2, 60)] {
            #expect(filter.consider(Self.fix(second, accuracy: accuracy), arriving: 0.2) == .hold(.inaccurate))
        }
        #expect(filter.bestInaccurate?.horizontalAccuracy == 45)
        #expect(filter.lastKnown?.horizontalAccuracy == 45)
        #expect(filter.lastDelivered == nil)
        #expect(filter.consider(Self.fix(3, accuracy: 12), arriving: 0.2) == .deliver(.first))
        #expect(filter.bestInaccurate == nil)
        #expect(filter.lastKnown?.horizontalAccuracy == 12)
    }

    @Test("heartbeat delivers a standing vehicle's fix at its interval, and nothing else")
    func heartbeat() {
        let fixes = (0..<181).map { Self.fix(Double($0), north: Double($0 % 7)) }  // jitter of a few metres
        let settings = LocationSettings(distanceFilter: 20, heartbeat: .seconds(60))
        #expect(Self.delivered(fixes, settings) == [0, 60, 120, 180])
    }

    @Test("min_interval applies only while moving")
    func minInterval() {
        let settings = LocationSettings(distanceFilter: 10_000, minInterval: .seconds(10))
        let standing = (0..<30).map { Self.fix(Double($0), speed: 0.3, course: 90) }
        #expect(Self.delivered(standing, settings) == [0])
        let driving = (0..<30).map { Self.fix(Double($0), north: Double($0) * 15, speed: 15, course: 0) }
        #expect(Self.delivered(driving, settings) == [0, 10, 20])
    }

    struct TurnRow: Sendable, CustomTestStringConvertible {
        var courses: [Double]
        var delivered: [Int]
        var testDescription: String { "courses \(courses) → delivered \(delivered)" }
    }

    static let turnRows: [TurnRow] = [
        // Across north: 350 → 10 is 20°, 350 → 25 is 35°.
        .init(courses: [350, 355, 10, 15], delivered: [0]),
        .init(courses: [350, 0, 25, 30], delivered: [0, 2]),
        .init(courses: [10, 340, 330], delivered: [0, 1]),
        // A slow turn: each step 10°, delivered each time 30° have added up since the last delivery.
        .init(courses: [0, 10, 20, 30, 40, 50, 60, 70], delivered: [0, 3, 6]),
    ]

    @Test("angle_filter delivers at turns, with 359 → 0 wrap", arguments: turnRows)
    func angleFilter(_ row: TurnRow) {
        let fixes = row.courses.enumerated().map { Self.fix(Double($0), north: Double($0) * 10, speed: 10, course: $1) }
        let settings = LocationSettings(distanceFilter: 10_000, angleFilter: 30)
        #expect(Self.delivered(fixes, settings) == row.delivered)
    }

    @Test("angle_filter ignores the course of a standing vehicle")
    func angleWhileStanding() {
        let fixes = [0.0, 120, 240, 0, 90].enumerated().map { Self.fix(Double($0), speed: 0.4, course: $1) }
        #expect(Self.delivered(fixes, LocationSettings(distanceFilter: 100, angleFilter: 30)) == [0])
    }

    @Test("after a delivery without a course, the first measured course is the reference")
    func angleReferenceAfterStop() {
        let fixes = [
            Self.fix(0), Self.fix(1, speed: 5, course: 90), Self.fix(2, speed: 5, course: 100),
            Self.fix(3, speed: 5, course: 125),
        ]
        #expect(Self.delivered(fixes, LocationSettings(distanceFilter: 1000, angleFilter: 30)) == [0, 3])
    }

    @Test func speedDelta() {
        let speeds = [0.0, 2, 4, 6, 5, 9, 9.5]
        let fixes = speeds.enumerated().map { Self.fix(Double($0), north: Double($0), speed: $1) }
        #expect(Self.delivered(fixes, LocationSettings(distanceFilter: 1000, speedDelta: 4)) == [0, 2, 5])
    }

    @Test("significant change: 500 m and 5 minutes, both")
    func significantChange() {
        // 2 m/s northwards for 20 minutes: 500 m after 250 s, but only every 300 s.
        let fixes = (0...1200).map { Self.fix(Double($0), north: Double($0) * 2) }
        let settings = LocationSettings(mode: .significantChange)
        #expect(Self.delivered(fixes, settings) == [0, 300, 600, 900, 1200])
        // 1.1 m/s: 500 m take 455 s.
        let slow = (0...1200).map { Self.fix(Double($0), north: Double($0) * 1.1) }
        #expect(Self.delivered(slow, settings) == [0, 455, 910])
        let verdicts = Self.verdicts(slow, settings)
        #expect(verdicts[454] == .hold(.filteredSignificantChange))
        #expect(verdicts[455] == .deliver(.significantChange))
    }

    @Test("in significant-change mode a heartbeat does not move the origin of the 500 m and 5 minutes")
    func significantChangeWithHeartbeat() {
        // 20 m/s for 20 minutes with a 2-minute heartbeat.
        let fixes = (0...1200).map { Self.fix(Double($0), north: Double($0) * 20) }
        let verdicts = Self.verdicts(fixes, LocationSettings(mode: .significantChange, heartbeat: .seconds(120)))
        let significant = verdicts.indices.filter { verdicts[$0] == .deliver(.significantChange) }
        #expect(significant == [300, 600, 900, 1200])
        let heartbeats = verdicts.indices.filter { verdicts[$0] == .deliver(.heartbeat) }
        #expect(heartbeats == [120, 240, 420, 540, 720, 840, 1020, 1140])
    }

    @Test("the last known location follows the held-back fixes, never older than a minute")
    func lastKnownFollowsInaccurateFixes() {
        var filter = LocationFilter(settings: LocationSettings(desiredAccuracy: .meters(10)))
        _ = filter.consider(Self.fix(0, accuracy: 5), arriving: 0.2)
        _ = filter.consider(Self.fix(1, north: 20, accuracy: 25), arriving: 0.2)
        #expect(filter.lastKnown?.time == Self.start.advanced(by: .seconds(1)))
        _ = filter.consider(Self.fix(2, north: 40, accuracy: 30), arriving: 0.2)
        #expect(filter.lastKnown?.time == Self.start.advanced(by: .seconds(1)), "the more accurate one stays")
        _ = filter.consider(Self.fix(62, north: 1240, accuracy: 30), arriving: 0.2)
        #expect(filter.lastKnown?.time == Self.start.advanced(by: .seconds(62)), "after a minute the newer wins")
        // Without any accuracy, the newest fix is the last known.
        var unknown = LocationFilter(settings: LocationSettings(desiredAccuracy: .meters(100)))
        for second in 0..<5 { _ = unknown.consider(Self.fix(Double(second), accuracy: nil), arriving: 0.2) }
        #expect(unknown.lastKnown?.time == Self.start.advanced(by: .seconds(4)))
    }

    @Test("a fix glitched years ahead is held and delivery goes on")
    func dateGlitch() {
        var fixes = (0..<5).map { Self.fix(Double($0)) }
        fixes.append(Self.fix(20 * 365 * 86_400))
        fixes += (6..<9).map { Self.fix(Double($0)) }
        var filter = LocationFilter()
        let verdicts = fixes.enumerated().map { index, fix in
            let arrival = Self.start.advanced(by: .seconds(Double(index) + 0.2))
            return filter.consider(
                fix,
                arrival: MonotonicInstant(nanoseconds: arrival.nanosecondsSince1970),
                wallClock: arrival,
                wallClockSynchronized: false
            )
        }
        #expect(verdicts[5] == .hold(.timeJump))
        #expect(verdicts[6...].allSatisfy { $0 == .deliver(.everyFix) })
    }

    @Test func staleAndOutOfOrderFixesAreHeld() {
        var filter = LocationFilter(settings: .init())
        #expect(filter.consider(Self.fix(0), arriving: 0.2) == .deliver(.first))
        #expect(filter.consider(Self.fix(1), arriving: 0.2) == .deliver(.everyFix))
        #expect(filter.consider(Self.fix(2), arriving: 30) == .hold(.stale))
        #expect(filter.consider(Self.fix(0.5), arriving: 0.2) == .hold(.outOfOrder))
        #expect(filter.consider(Self.fix(1), arriving: 0.2) == .hold(.repeatedEpoch))
        #expect(filter.consider(Self.fix(3), arriving: 0.2) == .deliver(.everyFix))
        #expect(filter.lastAccepted?.time == Self.start.advanced(by: .seconds(3)))
    }

    @Test("after the GPS time base jumps back, delivery starts again and the jump is reported")
    func timeBaseReset() {
        var filter = LocationFilter(settings: LocationSettings(distanceFilter: 100))
        for second in 0..<10 { _ = filter.consider(Self.fix(Double(second)), arriving: 0.2) }
        let weeks = 1024.0 * 7 * 86_400
        var verdicts: [LocationVerdict] = []
        for second in 10..<30 {
            verdicts.append(filter.consider(Self.fix(Double(second) - weeks), arriving: weeks + 0.2))
            if filter.timeBaseJump != nil { break }
        }
        #expect(verdicts.count == 11, "reset after 10 s of rejected fixes")
        #expect(verdicts.dropLast().allSatisfy { $0 == .hold(.outOfOrder) })
        #expect(verdicts.last == .deliver(.first))
        #expect(filter.timeBaseJump.map { abs($0.secondsValue - weeks) < 1 } == true)
    }

    @Test func anglesAcrossNorth() {
        #expect(LocationFilter.angle(between: 359, and: 1) == 2)
        #expect(LocationFilter.angle(between: 1, and: 359) == 2)
        #expect(LocationFilter.angle(between: 0, and: 180) == 180)
        #expect(LocationFilter.angle(between: 90, and: 300) == 150)
        #expect(LocationFilter.angle(between: 720, and: 10) == 10)
    }
}

extension LocationFilter {
    /// Considers a fix arriving `delay` seconds after its GPS time on a monotonic clock that reads GPS time,
    /// with an unsynchronized system clock.
    mutating func consider(_ location: Location, arriving delay: Double) -> LocationVerdict {
        let arrival = location.time.advanced(by: .seconds(delay))
        return consider(
            location,
            arrival: MonotonicInstant(nanoseconds: arrival.nanosecondsSince1970),
            wallClock: arrival,
            wallClockSynchronized: false
        )
    }
}

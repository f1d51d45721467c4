import Testing
import WaymarkCore

@Suite struct EpochAssemblerTests {
    /// 2010-04-11T16:57:44Z and the following epochs, one second apart.
    static let t0 = Timestamp(seconds: 1_271_005_064)
    static let t1 = Timestamp(seconds: 1_271_005_065)
    static let t2 = Timestamp(seconds: 1_271_005_066)

    static func ms(_ milliseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// A GGA-style report: a 3D position with altitudes and errors, no measured motion.
    static func gga(_ time: Timestamp?, latitude: Double = 49.0123, longitude: Double = 12.0987) -> FixReport {
        FixReport(
            time: time,
            mode: .threeD,
            latitude: latitude,
            longitude: longitude,
            altitudeHAE: 383.5,
            altitudeMSL: 336.2,
            horizontalError: 4.2,
            verticalError: 7.5
        )
    }

    /// An RMC-style report: position and measured speed and course, nothing else.
    static func rmc(_ time: Timestamp?, speed: Double = 13.4, course: Double = 271.5) -> FixReport {
        FixReport(
            time: time,
            mode: .twoD,
            latitude: 49.0124,
            longitude: 12.0986,
            speed: speed,
            speedError: 0.5,
            course: course,
            courseError: 3
        )
    }

    /// `report` with the speed and course of an RMC-style report.
    static func moving(_ report: FixReport, speed: Double = 13.4, course: Double = 271.5) -> FixReport {
        var moving = report
        moving.speed = speed
        moving.speedError = 0.5
        moving.course = course
        moving.courseError = 3
        return moving
    }

    static func noFix(_ time: Timestamp?, mode: FixMode = .noFix) -> FixReport { FixReport(time: time, mode: mode) }

    enum Step: Sendable {
        case add(FixReport, at: Int64)
        case flush(at: Int64)
        case finish
    }

    typealias Output = EpochAssembler.Output

    struct Scenario: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let steps: [Step]
        /// What each step returns, one array per step.
        let outputs: [[Output]]
    }

    static func run(_ steps: [Step], configuration: EpochAssembler.Configuration = .init()) -> [[Output]] {
        var assembler = EpochAssembler(configuration: configuration)
        return steps.map { step in
            switch step {
            case .add(let report, let milliseconds): assembler.add(report, at: ms(milliseconds))
            case .flush(let milliseconds): assembler.flush(at: ms(milliseconds))
            case .finish: assembler.finish()
            }
        }
    }

    static func location(_ report: FixReport, at time: Timestamp) -> Output {
        var horizontal = report.horizontalError
        if horizontal == nil, let x = report.longitudeError, let y = report.latitudeError {
            horizontal = (x * x + y * y).squareRoot()
        }
        return .location(
            Location(
                time: time,
                latitude: report.latitude!,
                longitude: report.longitude!,
                altitudeHAE: report.altitudeHAE,
                altitudeMSL: report.altitudeMSL,
                horizontalAccuracy: horizontal,
                verticalAccuracy: report.verticalError,
                speed: report.speed,
                speedAccuracy: report.speedError,
                course: report.course,
                courseAccuracy: report.courseError,
                mode: report.mode
            )
        )
    }

    static let duplicate = Output.rejected(.duplicateEpoch)

    static let scenarios: [Scenario] = [
        Scenario(
            testDescription: "a single report closes on the next epoch",
            steps: [.add(gga(t0), at: 0), .add(gga(t1), at: 1_000)],
            outputs: [[], [location(gga(t0), at: t0)]]
        ),
        Scenario(
            testDescription: "GGA then RMC: the GGA position with the RMC speed and course",
            steps: [.add(gga(t0), at: 0), .add(rmc(t0), at: 120), .add(gga(t1), at: 1_000)],
            outputs: [
                [], [],
                [
                    duplicate,
                    .location(
                        Location(
                            time: t0,
                            latitude: 49.0123,
                            longitude: 12.0987,
                            altitudeHAE: 383.5,
                            altitudeMSL: 336.2,
                            horizontalAccuracy: 4.2,
                            verticalAccuracy: 7.5,
                            speed: 13.4,
                            speedAccuracy: 0.5,
                            course: 271.5,
                            courseAccuracy: 3,
                            mode: .threeD
                        )
                    ),
                ],
            ]
        ),
        Scenario(
            testDescription: "motion comes from the latest report with a measured course",
            steps: [
                .add(rmc(t0, speed: 10, course: 90), at: 0),
                .add(gga(t0), at: 100),
                .add(rmc(t0, speed: 11, course: 95), at: 200),
                .add(FixReport(time: t0, mode: .twoD, latitude: 1, longitude: 2, speed: 99), at: 300),
                .finish,
            ],
            outputs: [
                [], [], [], [],
                [
                    duplicate, duplicate, duplicate,
                    location(moving(gga(nil), speed: 11, course: 95), at: t0),
                ],
            ]
        ),
        Scenario(
            testDescription: "the best report keeps its own course",
            steps: [
                .add(rmc(t0, speed: 10, course: 90), at: 0),
                .add(FixReport(time: t0, mode: .threeD, latitude: 1, longitude: 2, speed: 3, course: 45), at: 100),
                .finish,
            ],
            outputs: [
                [], [],
                [
                    duplicate,
                    location(FixReport(mode: .threeD, latitude: 1, longitude: 2, speed: 3, course: 45), at: t0),
                ],
            ]
        ),
        Scenario(
            testDescription: "a higher mode beats more fields",
            steps: [
                .add(rmc(t0), at: 0),
                .add(FixReport(time: t0, mode: .threeD, latitude: 1, longitude: 2), at: 100),
                .add(rmc(t0), at: 200),
                .finish,
            ],
            outputs: [
                [], [], [],
                [
                    duplicate, duplicate,
                    location(moving(FixReport(mode: .threeD, latitude: 1, longitude: 2)), at: t0),
                ],
            ]
        ),
        Scenario(
            testDescription: "same mode: more fields win even when earlier",
            steps: [
                .add(gga(t0), at: 0),
                .add(FixReport(time: t0, mode: .threeD, latitude: 1, longitude: 2), at: 100),
                .finish,
            ],
            outputs: [[], [], [duplicate, location(gga(t0), at: t0)]]
        ),
        Scenario(
            testDescription: "a complete tie goes to the later report",
            steps: [
                .add(gga(t0, latitude: 10, longitude: 20), at: 0),
                .add(gga(t0, latitude: 11, longitude: 21), at: 100),
                .finish,
            ],
            outputs: [[], [], [duplicate, location(gga(t0, latitude: 11, longitude: 21), at: t0)]]
        ),
        Scenario(
            testDescription: "a position beats a higher mode without one",
            steps: [
                .add(FixReport(time: t0, mode: .twoD, latitude: 1, longitude: 2), at: 0),
                .add(FixReport(time: t0, mode: .threeD, altitudeHAE: 5, horizontalError: 1, verticalError: 2), at: 100),
                .finish,
            ],
            outputs: [[], [], [duplicate, location(FixReport(mode: .twoD, latitude: 1, longitude: 2), at: t0)]]
        ),
        Scenario(
            testDescription: "the quiet period closes the epoch at its deadline, not before",
            steps: [.add(gga(t0), at: 0), .add(gga(t0), at: 300), .flush(at: 799), .flush(at: 800), .flush(at: 900)],
            outputs: [[], [], [], [duplicate, location(gga(t0), at: t0)], []]
        ),
        Scenario(
            testDescription: "a report after the deadline flushes the old epoch first",
            steps: [.add(gga(t0), at: 0), .add(gga(t1), at: 2_000), .finish],
            outputs: [[], [location(gga(t0), at: t0)], [location(gga(t1), at: t1)]]
        ),
        Scenario(
            testDescription: "time going backwards starts a new epoch",
            steps: [.add(gga(t1), at: 0), .add(gga(t0), at: 100), .finish],
            outputs: [[], [location(gga(t1), at: t1)], [location(gga(t0), at: t0)]]
        ),
        Scenario(
            testDescription: "a held timeless position joins the next timed epoch",
            steps: [
                .add(gga(nil), at: 0), .add(FixReport(time: t0, mode: .twoD, latitude: 1, longitude: 2), at: 200),
                .finish,
            ],
            outputs: [[], [], [duplicate, location(gga(t0), at: t0)]]
        ),
        Scenario(
            testDescription: "a held timeless position joins the current epoch",
            steps: [
                .add(FixReport(time: t0, mode: .twoD, latitude: 1, longitude: 2), at: 0),
                .add(gga(nil), at: 100),
                .add(rmc(t0), at: 200),
                .finish,
            ],
            outputs: [
                [], [], [],
                [
                    duplicate, duplicate,
                    location(moving(gga(nil)), at: t0),
                ],
            ]
        ),
        Scenario(
            testDescription: "a held timeless position is rejected no_time at the deadline",
            steps: [.add(gga(nil), at: 0), .flush(at: 499), .flush(at: 500), .finish],
            outputs: [[], [], [.rejected(.noTime)], []]
        ),
        Scenario(
            testDescription: "a timed report after the deadline does not adopt the held position",
            steps: [.add(gga(nil), at: 0), .add(rmc(t0), at: 600), .finish],
            outputs: [[], [.rejected(.noTime)], [location(rmc(t0), at: t0)]]
        ),
        Scenario(
            testDescription: "a timeless position replaced by another is rejected no_time",
            steps: [
                .add(gga(nil, latitude: 1), at: 0), .add(gga(nil, latitude: 2), at: 100), .add(rmc(t0), at: 200),
                .finish,
            ],
            outputs: [
                [], [.rejected(.noTime)], [],
                [
                    duplicate,
                    location(moving(gga(nil, latitude: 2)), at: t0),
                ],
            ]
        ),
        Scenario(
            testDescription: "timeless reports without a fix are no-fix at once",
            steps: [
                .add(noFix(nil), at: 0), .add(noFix(nil, mode: .notSeen), at: 100),
                .add(FixReport(mode: .twoD), at: 200),
            ],
            outputs: [
                [.noFix(mode: .noFix, time: nil)],
                [.noFix(mode: .notSeen, time: nil)],
                [.noFix(mode: .twoD, time: nil)],
            ]
        ),
        Scenario(
            testDescription: "a mode-1 epoch is no-fix with its time",
            steps: [.add(noFix(t0), at: 0), .add(noFix(t0), at: 100), .add(noFix(t1), at: 1_000), .finish],
            outputs: [[], [], [duplicate, .noFix(mode: .noFix, time: t0)], [.noFix(mode: .noFix, time: t1)]]
        ),
        Scenario(
            testDescription: "a position without a fix mode is no-fix",
            steps: [.add(FixReport(time: t0, mode: .noFix, latitude: 1, longitude: 2), at: 0), .finish],
            outputs: [[], [.noFix(mode: .noFix, time: t0)]]
        ),
        Scenario(
            testDescription: "a fix turns into no-fix between epochs",
            steps: [.add(gga(t0), at: 0), .add(noFix(t1), at: 1_000), .add(gga(t2), at: 2_000), .finish],
            outputs: [[], [location(gga(t0), at: t0)], [.noFix(mode: .noFix, time: t1)], [location(gga(t2), at: t2)]]
        ),
        Scenario(
            testDescription: "finish emits the pending epoch and the held position",
            steps: [.add(gga(t0), at: 0), .add(gga(nil), at: 100), .finish, .finish, .flush(at: 10_000)],
            outputs: [[], [], [location(gga(t0), at: t0), .rejected(.noTime)], [], []]
        ),
        Scenario(
            testDescription: "nothing pending: flush and finish emit nothing",
            steps: [.flush(at: 0), .finish, .flush(at: 1_000_000)],
            outputs: [[], [], []]
        ),
    ]

    @Test(arguments: scenarios)
    func assemblesOneResultPerEpoch(_ scenario: Scenario) {
        let outputs = Self.run(scenario.steps)
        #expect(outputs.count == scenario.outputs.count)
        for (step, (actual, expected)) in zip(outputs, scenario.outputs).enumerated() {
            #expect(actual == expected, "step \(step)")
        }
    }

    @Test(arguments: 1...6)
    func duplicateEpochRejectionsAreReportsMinusOne(_ reports: Int) {
        var assembler = EpochAssembler()
        var outputs: [Output] = []
        for index in 0..<reports {
            outputs += assembler.add(Self.gga(Self.t0), at: Self.ms(Int64(index) * 50))
        }
        outputs += assembler.add(Self.gga(Self.t1), at: Self.ms(1_000))
        #expect(outputs.filter { $0 == Self.duplicate }.count == reports - 1)
        #expect(outputs.last == Self.location(Self.gga(Self.t0), at: Self.t0))
        #expect(outputs.count == reports)
    }

    struct Coordinates: Sendable, CustomTestStringConvertible {
        let latitude: Double
        let longitude: Double
        let isValid: Bool
        var testDescription: String { "\(latitude), \(longitude)" }
    }

    @Test(arguments: [
        Coordinates(latitude: 90, longitude: 180, isValid: true),
        Coordinates(latitude: -90, longitude: -180, isValid: true),
        Coordinates(latitude: 0, longitude: 0, isValid: true),
        Coordinates(latitude: 90.000_001, longitude: 0, isValid: false),
        Coordinates(latitude: -91, longitude: 0, isValid: false),
        Coordinates(latitude: 0, longitude: 180.5, isValid: false),
        Coordinates(latitude: 0, longitude: -180.000_001, isValid: false),
        Coordinates(latitude: 4_901.23, longitude: 1_209.87, isValid: false),
    ])
    func outOfRangeCoordinatesAreInvalidPositions(_ coordinates: Coordinates) {
        var assembler = EpochAssembler()
        let report = Self.gga(Self.t0, latitude: coordinates.latitude, longitude: coordinates.longitude)
        #expect(assembler.add(report, at: Self.ms(0)).isEmpty)
        let expected = coordinates.isValid ? Self.location(report, at: Self.t0) : .rejected(.invalidPosition)
        #expect(assembler.finish() == [expected])
    }

    struct Accuracy: Sendable, CustomTestStringConvertible {
        let eph: Double?
        let epx: Double?
        let epy: Double?
        let horizontal: Double?
        var testDescription: String { "eph \(eph as Any), epx \(epx as Any), epy \(epy as Any)" }
    }

    @Test(arguments: [
        Accuracy(eph: 5, epx: nil, epy: nil, horizontal: 5),
        Accuracy(eph: 7, epx: 3, epy: 4, horizontal: 7),
        Accuracy(eph: nil, epx: 3, epy: 4, horizontal: 5),
        Accuracy(eph: nil, epx: 0, epy: 2.5, horizontal: 2.5),
        Accuracy(eph: nil, epx: 3, epy: nil, horizontal: nil),
        Accuracy(eph: nil, epx: nil, epy: 4, horizontal: nil),
        Accuracy(eph: nil, epx: nil, epy: nil, horizontal: nil),
    ])
    func horizontalAccuracyIsEPHElseTheCombinedEPXAndEPY(_ accuracy: Accuracy) throws {
        var assembler = EpochAssembler()
        let report = FixReport(
            time: Self.t0,
            mode: .threeD,
            latitude: 1,
            longitude: 2,
            horizontalError: accuracy.eph,
            longitudeError: accuracy.epx,
            latitudeError: accuracy.epy
        )
        _ = assembler.add(report, at: Self.ms(0))
        let outputs = assembler.finish()
        guard case .location(let location) = try #require(outputs.first) else {
            Issue.record("expected a location, got \(outputs)")
            return
        }
        #expect(location.horizontalAccuracy == accuracy.horizontal)
        #expect(location.time == Self.t0)
    }

    @Test func deadlineIsTheLastArrivalPlusTheQuietPeriod() {
        var assembler = EpochAssembler(configuration: .init(quietPeriod: .milliseconds(250)))
        #expect(assembler.deadline == nil)
        _ = assembler.add(Self.gga(Self.t0), at: Self.ms(1_000))
        #expect(assembler.deadline == Self.ms(1_250))
        _ = assembler.add(Self.gga(Self.t0), at: Self.ms(1_200))
        #expect(assembler.deadline == Self.ms(1_450))
        #expect(assembler.flush(at: Self.ms(1_449)).isEmpty)
        #expect(assembler.flush(at: Self.ms(1_450)) == [Self.duplicate, Self.location(Self.gga(Self.t0), at: Self.t0)])
        #expect(assembler.deadline == nil)
    }

    @Test func deadlineCoversAHeldTimelessPosition() {
        var assembler = EpochAssembler()
        _ = assembler.add(Self.gga(nil), at: Self.ms(10))
        #expect(assembler.deadline == Self.ms(510))
        #expect(assembler.finish() == [.rejected(.noTime)])
        #expect(assembler.deadline == nil)
    }

    @Test func timelessNoFixLeavesNoDeadline() {
        var assembler = EpochAssembler()
        _ = assembler.add(Self.noFix(nil), at: Self.ms(10))
        #expect(assembler.deadline == nil)
    }

    @Test func defaultQuietPeriodIsHalfASecond() {
        #expect(EpochAssembler().configuration.quietPeriod == .milliseconds(500))
    }

    @Test func outputsMapToSourceEvents() {
        let location = Location(time: Self.t0, latitude: 1, longitude: 2)
        #expect(Output.location(location).sourceEvent == .location(location))
        #expect(Output.noFix(mode: .noFix, time: Self.t0).sourceEvent == .noFix(mode: .noFix, time: Self.t0))
        #expect(Output.rejected(.noTime).sourceEvent == .rejected(.noTime))
    }

    /// At 4800 baud a receiver's GGA and RMC for one epoch can arrive more than the quiet period apart: the
    /// epoch was already emitted, and the late report of the same GPS time must not make a second location
    /// (docs/architecture.md, "Clocks": repeated epochs are resolved by GPS time).
    @Test("a late report of an epoch already emitted is a duplicate, not a second location")
    func lateReportOfAnEmittedEpochIsADuplicate() {
        let outputs = Self.run([.add(Self.gga(Self.t0), at: 0), .add(Self.rmc(Self.t0), at: 700), .finish])
        #expect(outputs == [[], [Self.location(Self.gga(Self.t0), at: Self.t0), Self.duplicate], []])
    }
}

import Testing
import WaymarkCore

@Suite struct EventPipelineTests {
    /// Wall-clock time of the first update: 2023-11-14T22:13:20Z; one update per second after it.
    static let wallClock = Timestamp(seconds: 1_700_000_000)
    /// GPS time of the fixes, deliberately different from the wall clock.
    static let gpsTime = Timestamp(seconds: 1_700_000_100, nanoseconds: 250_000_000)
    static let server = "localhost:2947"
    static let path = "/dev/ttyUSB0"

    static let connected = SourceEvent.connected(server: server, release: "3.22")
    static let unavailable = SourceEvent.unavailable(server: server, reason: "connection refused", retryIn: .seconds(2))
    static let active = SourceEvent.deviceActive(path: path)
    static let gone = SourceEvent.deviceGone(path: path)
    static let noFix = SourceEvent.noFix(mode: .noFix, time: gpsTime)
    static let fix3 = SourceEvent.location(location(mode: .threeD))
    static let fix2 = SourceEvent.location(location(mode: .twoD))

    static func location(mode: FixMode = .threeD, at offset: Duration = .zero) -> Location {
        Location(time: gpsTime.advanced(by: offset), latitude: 49.0123, longitude: 12.0987, mode: mode)
    }

    /// The `index`-th update: monotonic and wall-clock time advance one second per update.
    static func update(_ event: SourceEvent, index: Int, received: Timestamp? = nil) -> SourceUpdate {
        SourceUpdate(
            event,
            monotonic: MonotonicInstant(nanoseconds: Int64(index) * 1_000_000_000),
            wallClock: wallClock.advanced(by: .seconds(index)),
            received: received
        )
    }

    /// What a reader of the log sees of an event: its type, or an error's code.
    static func summary(_ event: Event) -> String {
        guard case .error(let report) = event.kind else { return event.type }
        return report.code.rawValue
    }

    /// Feeds `events` one per second and returns what each one produced. Each fix is an epoch of its own:
    /// its GPS time advances a second per update, as a receiver's would.
    static func run(_ events: [SourceEvent], into pipeline: inout EventPipeline) -> [[Event]] {
        events.enumerated().map { index, event in
            guard case .location(var location) = event else { return pipeline.handle(update(event, index: index)) }
            location.time = location.time.advanced(by: .seconds(index))
            return pipeline.handle(update(.location(location), index: index))
        }
    }

    static func run(_ events: [SourceEvent]) -> [[Event]] {
        var pipeline = EventPipeline()
        return run(events, into: &pipeline)
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let events: [SourceEvent]
        /// What each update produces, as types and error codes.
        let produces: [[String]]
    }

    static let scenarios: [Scenario] = [
        Scenario(testDescription: "connecting reports status", events: [connected], produces: [["status"]]),
        Scenario(
            testDescription: "the first update of any kind reports status",
            events: [.sky(SkyReport(satellitesUsed: 4)), connected],
            produces: [["status"], ["status"]]
        ),
        Scenario(
            testDescription: "gpsd down from the start: the error, then the status it leads to",
            events: [unavailable],
            produces: [["gpsd_unavailable", "status"]]
        ),
        Scenario(
            testDescription: "gpsd_unavailable once per outage, not per retry",
            events: [connected, unavailable, unavailable, unavailable],
            produces: [["status"], ["gpsd_unavailable", "status"], [], []]
        ),
        Scenario(
            testDescription: "a connection clears the outage",
            events: [unavailable, unavailable, connected, unavailable, unavailable, connected],
            produces: [
                ["gpsd_unavailable", "status"], [], ["status"], ["gpsd_unavailable", "status"], [], ["status"],
            ]
        ),
        Scenario(
            testDescription: "connected again without a change says nothing",
            events: [connected, connected],
            produces: [["status"], []]
        ),
        Scenario(
            testDescription: "no_device once until the device is back",
            events: [connected, active, gone, gone, active, gone],
            produces: [["status"], ["status"], ["no_device", "status"], [], ["status"], ["no_device", "status"]]
        ),
        Scenario(
            testDescription: "gpsd without any receiver",
            events: [connected, .deviceGone(path: nil), .deviceGone(path: nil), active],
            produces: [["status"], ["no_device"], [], ["status"]]
        ),
        Scenario(
            testDescription: "location_unknown once per loss of the fix",
            events: [connected, active, fix3, noFix, noFix, fix3, noFix, noFix],
            produces: [
                ["status"], ["status"], ["location", "status"], ["location_unknown", "status"], [],
                ["location", "status"], ["location_unknown", "status"], [],
            ]
        ),
        Scenario(
            testDescription: "no fix yet: location_unknown once, status unchanged",
            events: [connected, active, noFix, noFix, fix3],
            produces: [["status"], ["status"], ["location_unknown"], [], ["location", "status"]]
        ),
        Scenario(
            testDescription: "status on mode changes, not for every location",
            events: [connected, fix2, fix2, fix3, fix3, fix3, fix2],
            produces: [
                ["status"], ["location", "status"], ["location"], ["location", "status"], ["location"], ["location"],
                ["location", "status"],
            ]
        ),
        Scenario(
            testDescription: "every gpsd error is reported",
            events: [connected, .gpsdError(message: "unknown device"), .gpsdError(message: "unknown device")],
            produces: [["status"], ["gpsd_error"], ["gpsd_error"]]
        ),
        Scenario(
            testDescription: "rejections, drops, attitude and sky without news are counted silently",
            events: [
                connected, .rejected(.noTime), .rejected(.unparsable), .dropped(count: 3),
                .attitude(Attitude(heading: 90)),
                .sky(SkyReport(satellitesUsed: nil)),
            ],
            produces: [["status"], [], [], [], [], []]
        ),
        Scenario(
            testDescription: "losing gpsd forgets the device and the fix",
            events: [connected, active, fix3, unavailable, connected, active, fix3],
            produces: [
                ["status"], ["status"], ["location", "status"], ["gpsd_unavailable", "status"], ["status"], ["status"],
                ["location", "status"],
            ]
        ),
        Scenario(
            testDescription: "the device going away while fixed",
            events: [connected, active, fix3, gone, active, fix3],
            produces: [
                ["status"], ["status"], ["location", "status"], ["no_device", "status"], ["status"],
                ["location", "status"],
            ]
        ),
        Scenario(
            testDescription: "a lost fix and a missing receiver are reported and cleared independently",
            events: [connected, active, fix3, noFix, gone, noFix, active, noFix, fix3],
            produces: [
                ["status"], ["status"], ["location", "status"], ["location_unknown", "status"],
                ["no_device", "status"], [], ["status"], [], ["location", "status"],
            ]
        ),
        Scenario(
            testDescription: "a reconnection without an outage keeps what was reported; an outage forgets it",
            events: [connected, gone, noFix, connected, gone, noFix, unavailable, connected, gone, noFix],
            produces: [
                ["status"], ["no_device"], ["location_unknown"], [], [], [], ["gpsd_unavailable", "status"], ["status"],
                ["no_device"], ["location_unknown"],
            ]
        ),
        Scenario(
            testDescription: "a location first (replay) is followed by the status",
            events: [fix3, fix3],
            produces: [["location", "status"], ["location"]]
        ),
    ]

    @Test(arguments: scenarios)
    func producesTheExpectedEvents(_ scenario: Scenario) {
        let produced = Self.run(scenario.events).map { $0.map(Self.summary) }
        #expect(produced == scenario.produces)
    }

    @Test func statusDescribesTheStateAfterTheUpdate() throws {
        var pipeline = EventPipeline()
        let events = Self.run(
            [Self.connected, Self.active, .sky(SkyReport(satellitesUsed: 9)), Self.fix3],
            into: &pipeline
        )
        let statuses = events.joined().compactMap { event -> Status? in
            guard case .status(let status) = event.kind else { return nil }
            return status
        }
        #expect(
            statuses == [
                Status(gpsd: .connected),
                Status(gpsd: .connected, device: Self.path),
                Status(
                    gpsd: .connected,
                    device: Self.path,
                    fixMode: .threeD,
                    satellitesUsed: 9,
                    lastKnown: Self.location(at: .seconds(3))
                ),
            ]
        )

        let outage = pipeline.handle(Self.update(Self.unavailable, index: 4))
        let status = try #require(outage.last)
        #expect(status.kind == .status(Status(gpsd: .unavailable, lastKnown: Self.location(at: .seconds(3)))))
    }

    @Test func losingTheFixReportsNoFixModeInStatus() throws {
        let events = Self.run([Self.connected, Self.fix3, .noFix(mode: .notSeen, time: nil)])
        let status = try #require(events[2].last)
        #expect(
            status.kind == .status(Status(gpsd: .connected, fixMode: .noFix, lastKnown: Self.location(at: .seconds(1))))
        )
    }

    @Test func countsEverythingByReason() {
        var pipeline = EventPipeline()
        _ = Self.run(
            [
                Self.connected, Self.unavailable, Self.unavailable, Self.fix3, Self.fix2, Self.noFix,
                .attitude(Attitude(heading: 12)), .sky(SkyReport()), .gpsdError(message: "x"), .rejected(.noTime),
                .rejected(.noTime), .rejected(.duplicateEpoch), .rejected(.invalidPosition),
                .rejected(Rejection("custom")),
                .dropped(count: 5), .dropped(count: 2), Self.active, Self.gone,
            ],
            into: &pipeline
        )
        #expect(
            pipeline.counters.values == [
                "gpsd_unavailable": 2, "location": 2, "no_fix": 1, "attitude": 1, "sky": 1, "gpsd_error": 1,
                "no_time": 2, "duplicate_epoch": 1, "invalid_position": 1, "custom": 1, "dropped": 7,
            ]
        )
        #expect(pipeline.counters["no_time"] == 2)
        #expect(pipeline.counters["never_seen"] == 0)
        #expect(
            pipeline.counters.summary
                == "attitude=1 custom=1 dropped=7 duplicate_epoch=1 gpsd_error=1 gpsd_unavailable=2 "
                + "invalid_position=1 location=2 no_fix=1 no_time=2 sky=1"
        )
    }

    @Test func countersStartEmpty() {
        var counters = Counters()
        #expect(counters.values.isEmpty)
        #expect(counters.summary == "")
        counters.count("b")
        counters.count("a", by: 3)
        counters.count("b")
        #expect(counters.summary == "a=3 b=2")
    }

    @Test("a fix's verdict is counted in place, and reads the same by name as by reason")
    func verdictCounters() {
        var counters = Counters()
        counters.count(.deliver(.distance))
        counters.count(.hold(.stale))
        counters.count("stale", by: 2)
        counters.count(.hold(.filteredDistance))
        counters.count("sky")
        #expect(counters.delivered == 1)
        #expect(counters[.stale] == 3 && counters["stale"] == 3)
        #expect(counters[.filteredDistance] == 1 && counters["filtered_distance"] == 1)
        #expect(counters[.paused] == 0 && counters["paused"] == 0)
        #expect(counters.values == ["location": 1, "stale": 3, "filtered_distance": 1, "sky": 1])
        var byName = Counters()
        byName.count("location")
        byName.count("stale", by: 3)
        byName.count("filtered_distance")
        byName.count("sky")
        #expect(byName == counters)
        #expect(counters.summary == "filtered_distance=1 location=1 sky=1 stale=3")
    }

    @Test("a repeated or stale fix neither clears location_unknown nor changes the status")
    func heldFixesSayNothingAboutNow() {
        var pipeline = EventPipeline()
        let fix = Self.location()
        let events = [
            Self.connected, .location(fix), Self.noFix, .location(fix), Self.noFix,
        ].enumerated().map { index, event in pipeline.handle(Self.update(event, index: index)).map(Self.summary) }
        #expect(events == [["status"], ["location", "status"], ["location_unknown", "status"], [], []])
        #expect(pipeline.counters["repeated_epoch"] == 1)
    }

    @Test("a new connection is a new stream: a replay restarted from its beginning delivers at once")
    func newConnectionNewStream() {
        var pipeline = EventPipeline(location: LocationSettings(distanceFilter: 100, heartbeat: .seconds(1800)))
        let drive = (0..<5).map { Self.location(at: .seconds(Double($0) * 3600)) }
        var index = 0
        func feed(_ event: SourceEvent) -> [String] {
            defer { index += 1 }
            return pipeline.handle(Self.update(event, index: index)).map(Self.summary)
        }
        _ = feed(Self.connected)
        for fix in drive { _ = feed(.location(fix)) }
        #expect(pipeline.lastLocation == drive[4])
        _ = feed(Self.unavailable)
        _ = feed(Self.connected)
        #expect(feed(.location(drive[0])) == ["location", "status"], "behind the last delivery: a first fix again")
        #expect(pipeline.counters["out_of_order"] == 0)
    }

    @Test("with heading on, losing gpsd marks the heading invalid")
    func headingInvalidOnOutage() {
        var pipeline = EventPipeline(heading: HeadingSettings(enabled: true))
        var fix = Self.location()
        fix.speed = 10
        fix.course = 45
        let events = [Self.connected, .location(fix), Self.unavailable].enumerated().map { index, event in
            pipeline.handle(Self.update(event, index: index))
        }
        let headings = events.joined().compactMap { event -> Heading? in
            if case .heading(let heading) = event.kind { heading } else { nil }
        }
        #expect(headings.map(\.isValid) == [true, false])
    }

    @Test("events after a fix not delivered carry its GPS time forward, not the board's 1970 clock")
    func eventTimeFollowsTheNewestFix() throws {
        var pipeline = EventPipeline(location: LocationSettings(distanceFilter: 1000))
        let first = Self.location()
        let later = Self.location(at: .seconds(3600))
        _ = pipeline.handle(Self.update(.location(first), index: 0))
        _ = pipeline.handle(Self.update(.location(later), index: 3600))
        #expect(pipeline.lastLocation == first, "held by the distance filter")
        // The board's clock is in 1970.
        let lost = pipeline.handle(
            SourceUpdate(
                Self.noFix,
                monotonic: MonotonicInstant(nanoseconds: 3_601_000_000_000),
                wallClock: Timestamp(seconds: 0)
            )
        )
        #expect(lost.map(\.time) == [later.time.advanced(by: .seconds(1)), later.time.advanced(by: .seconds(1))])
    }

    @Test("the satellites used alone make no status event; the next one carries their count")
    func satellitesUsedAloneMakeNoStatus() throws {
        var pipeline = EventPipeline()
        let events = Self.run(
            [
                Self.connected, .sky(SkyReport(satellitesUsed: 7)), .sky(SkyReport(satellitesUsed: 8)),
                Self.active,
            ],
            into: &pipeline
        )
        #expect(events.map { $0.map(Self.summary) } == [["status"], [], [], ["status"]])
        let status = try #require(events[3].last)
        #expect(status.kind == .status(Status(gpsd: .connected, device: Self.path, satellitesUsed: 8)))
    }

    @Test func keepsTheLastLocationThroughOutages() {
        var pipeline = EventPipeline()
        #expect(pipeline.lastLocation == nil)
        let first = Self.location()
        let second = Self.location(mode: .twoD, at: .seconds(5))
        for (index, event) in [Self.connected, .location(first), Self.noFix, Self.gone, Self.unavailable].enumerated() {
            _ = pipeline.handle(Self.update(event, index: index))
        }
        #expect(pipeline.lastLocation == first)
        _ = pipeline.handle(Self.update(.location(second), index: 5))
        #expect(pipeline.lastLocation == second)
    }

    @Test func locationEventsCarryGPSTimeAndOthersGPSTimeCarriedForward() throws {
        var pipeline = EventPipeline()
        let received = Timestamp(seconds: 1_700_000_050, nanoseconds: 7_000_000)
        // The board's clock is off: the wall clock of the fix is an hour before its GPS time.
        let fixUpdate = SourceUpdate(
            Self.fix3,
            monotonic: MonotonicInstant(nanoseconds: 1),
            wallClock: Self.gpsTime.advanced(by: .seconds(-3_600)),
            received: received
        )
        let atFix = pipeline.handle(fixUpdate)
        #expect(atFix.map(Self.summary) == ["location", "status"])
        #expect(atFix.allSatisfy { $0.time == Self.gpsTime })
        #expect(atFix.allSatisfy { $0.received == received })
        #expect(atFix.allSatisfy { $0.seq == 0 })

        // Ten seconds later on the monotonic clock; the wall clock says something else again.
        let lossUpdate = SourceUpdate(
            Self.noFix,
            monotonic: MonotonicInstant(nanoseconds: 10_000_000_001),
            wallClock: Self.gpsTime.advanced(by: .seconds(7_200))
        )
        let atLoss = pipeline.handle(lossUpdate)
        #expect(atLoss.map(Self.summary) == ["location_unknown", "status"])
        #expect(atLoss.allSatisfy { $0.time == Self.gpsTime.advanced(by: .seconds(10)) })
        #expect(atLoss.allSatisfy { $0.received == nil })
    }

    @Test func errorsAndStatusesCarryTheWallClockOfTheirUpdate() {
        let events = Self.run([Self.connected, Self.unavailable, Self.connected, Self.gone])
        for (index, produced) in events.enumerated() {
            #expect(!produced.isEmpty)
            #expect(produced.allSatisfy { $0.time == Self.wallClock.advanced(by: .seconds(index)) }, "update \(index)")
        }
    }

    struct Message: Sendable, CustomTestStringConvertible {
        let event: SourceEvent
        let message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Message(
            event: .unavailable(server: "localhost:2947", reason: "connection refused", retryIn: .seconds(2)),
            message: "gpsd at localhost:2947 is unavailable: connection refused; retrying in 2.0 s and backing off"
        ),
        Message(
            event: .unavailable(server: "10.0.0.2:2947", reason: "timed out", retryIn: .milliseconds(250)),
            message: "gpsd at 10.0.0.2:2947 is unavailable: timed out; retrying in 250 ms and backing off"
        ),
        Message(
            event: .unavailable(server: "localhost:2947", reason: "end of stream", retryIn: .milliseconds(12_340)),
            message: "gpsd at localhost:2947 is unavailable: end of stream; retrying in 12.3 s and backing off"
        ),
        Message(
            event: .unavailable(server: "localhost:2947", reason: "end of stream", retryIn: nil),
            message: "gpsd at localhost:2947 is unavailable: end of stream"
        ),
        Message(
            event: .deviceGone(path: "/dev/ttyUSB0"),
            message: "the receiver /dev/ttyUSB0 is gone: gpsd stopped reporting from it"
        ),
        Message(
            event: .deviceGone(path: nil),
            message: "gpsd has no receiver: check the device and gpsd's configuration"
        ),
        Message(
            event: .noFix(mode: .noFix, time: nil),
            message: "the receiver has no fix; the last known location is kept"
        ),
        Message(event: .gpsdError(message: "unknown device"), message: "gpsd reported: unknown device"),
    ])
    func errorMessagesSayWhatHappened(_ row: Message) throws {
        var pipeline = EventPipeline()
        let events = pipeline.handle(Self.update(row.event, index: 0))
        let error = try #require(events.first)
        guard case .error(let report) = error.kind else {
            Issue.record("expected an error, got \(events)")
            return
        }
        #expect(report.message == row.message)
    }

    /// `EventPipeline.eventTime` promises "never a time before the last fix", but returns the wall clock as is:
    /// a board that booted without a real-time clock (wall clock in 1970) reports the loss of a 2023 fix in 1970.
    @Test("events after a fix never carry a wall-clock time before that fix")
    func nonFixEventsAreNeverStampedBeforeTheLastFix() {
        var pipeline = EventPipeline()
        let boot = Timestamp(seconds: 120)
        _ = pipeline.handle(SourceUpdate(Self.connected, monotonic: .zero, wallClock: boot))
        _ = pipeline.handle(SourceUpdate(Self.fix3, monotonic: MonotonicInstant(nanoseconds: 1), wallClock: boot))
        let loss = pipeline.handle(
            SourceUpdate(Self.noFix, monotonic: MonotonicInstant(nanoseconds: 2), wallClock: boot)
        )
        #expect(loss.map(Self.summary) == ["location_unknown", "status"])
        #expect(loss.allSatisfy { $0.time >= Self.gpsTime }, "\(loss.map(\.time))")
    }

    /// An epoch whose best TPV says mode 3 but carries no latitude/longitude becomes `.noFix(mode: .threeD)`
    /// (EpochAssembler); the pipeline then reports `location_unknown` together with a status claiming a 3D fix.
    @Test("a no-fix update with mode 2 or 3 does not make status claim a fix", arguments: [FixMode.twoD, .threeD])
    func noFixNeverReportsAFixModeInStatus(_ mode: FixMode) {
        let events = Self.run([Self.connected, .noFix(mode: mode, time: Self.gpsTime)])
        #expect(events[1].map(Self.summary).contains("location_unknown"))
        for event in events.joined() {
            if case .status(let status) = event.kind {
                #expect(!status.fixMode.hasFix, "status with fix_mode \(status.fixMode.rawValue)")
            }
        }
    }

    @Test("while paused no location is delivered but the heartbeat")
    func pausedDelivery() {
        var activity = ActivitySettings()
        activity.pauseAfter = .seconds(30)
        activity.powerSave = false
        var location = LocationSettings()
        location.heartbeat = .seconds(20)
        var pipeline = EventPipeline(location: location, activity: activity)
        let parked = [Self.connected] + Array(repeating: Self.fix3, count: 90)
        let produced = Self.run(parked, into: &pipeline)
        let types = produced.map { $0.map(Self.summary).filter { $0 != "status" } }
        // The heartbeat delivers at seconds 0 and 20 (update 1 is second 0); the fix of second 30 pauses and is
        // held; while paused the heartbeat still delivers, at seconds 40, 60 and 80.
        let delivered = types.indices.filter { types[$0].contains("location") }
        #expect(delivered == [1, 21, 41, 61, 81], "\(delivered)")
        #expect(types[31] == ["pause"])
        #expect(pipeline.counters["paused"] == 57 && pipeline.counters["pause"] == 1)
        #expect(pipeline.activity.isPaused)
    }
}

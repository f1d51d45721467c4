import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Issue 6's acceptance on real captures: pauses, resumes and trips through a real gpsd and in replay.
@Suite("Automotive pause, resume and trips through a real gpsd")
struct ActivityTests {
    static let drive = "20100411_Geko_Regensburg.log"

    /// The `pause`, `resume` and `trip` events of `events`, without what differs between runs (`seq`, `recv`).
    static func activity(_ events: [[String: Any]]) -> [[String: String]] {
        events.compactMap { object in
            guard let type = object["type"] as? String, ["pause", "resume", "trip"].contains(type) else { return nil }
            var fields: [String: String] = [:]
            for (key, value) in object where key != "seq" && key != "recv" {
                // A nested object (a trip's `driving`) as JSON with sorted keys: a dictionary's description has
                // no fixed order.
                if JSONSerialization.isValidJSONObject(value),
                    let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
                {
                    fields[key] = String(decoding: data, as: UTF8.self)
                } else {
                    fields[key] = "\(value)"
                }
            }
            return fields
        }
    }

    /// The same events from `waymark replay` of the capture gpsd made of `log`.
    static func replayed(_ log: String, _ settings: String) throws -> [[String: Any]] {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waymark.toml").path
        try (Fixtures.isolatedSections(in: directory, besides: settings) + settings + "\n").write(
            toFile: path,
            atomically: true,
            encoding: .utf8
        )
        let result = try WaymarkBinary.run(["replay", Fixtures.gpsdLog(log + ".chk"), "--print", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try WaymarkBinary.events(result)
    }

    /// A stop found from the receiver alone: consecutive epochs at a measured speed below 1 m/s, all within
    /// 25 m of the first; it lasts from its first epoch to the first epoch after it.
    struct Stop: CustomStringConvertible {
        var start: Timestamp
        var end: Timestamp
        var duration: Double { end.duration(since: start).secondsValue }
        var description: String { "\(start) for \(duration) s" }
    }

    static func stops(in epochs: [Location]) -> [Stop] {
        var stops: [Stop] = []
        var first: Location?
        for epoch in epochs {
            if let speed = epoch.speed, speed < 1, first.map({ $0.distance(to: epoch) < 25 }) ?? true {
                first = first ?? epoch
                continue
            }
            if let start = first { stops.append(Stop(start: start.time, end: epoch.time)) }
            first = nil
        }
        return stops
    }

    @Test("Regensburg, pause_after = 30s: a pause for each stop of 30 s, a resume after it, trips as long as the track")
    func regensburgDrive() throws {
        let settings = "[activity]\npause_after = \"30s\"\npower_save = false"
        let epochs = try LocationDeliveryTests.epochs(Self.drive)
        let stops = Self.stops(in: epochs)
        let long = stops.filter { $0.duration >= 30 }
        try #require(long.count == 2 && stops.count >= 7, "the drive's stops: \(stops)")

        let live = try LiveRun.events(Self.drive, settings).events
        let activity = Self.activity(live)
        let pauses = activity.filter { $0["type"] == "pause" }
        #expect(pauses.count == long.count, "\(activity)")
        for (pause, stop) in zip(pauses, long) {
            let since = try #require(pause["since"].flatMap(Timestamp.init(iso8601:)))
            // The pause's stop began at most one 2-s epoch before the receiver's speed fell below 1 m/s.
            #expect(since >= stop.start.advanced(by: .seconds(-4)) && since <= stop.start.advanced(by: .seconds(2)))
            #expect(pause["reason"] == "stationary")
        }
        // Every pause is followed by a resume, before the next pause.
        let sequence = activity.compactMap { $0["type"] }.filter { $0 != "trip" }
        #expect(sequence == Array(repeating: ["pause", "resume"], count: long.count).flatMap { $0 }, "\(sequence)")

        // The trips' distances against the geodesic length of the track while moving (a step is moving
        // unless both its ends are in one stop).
        var moving = 0.0
        for (previous, next) in zip(epochs, epochs.dropFirst()) {
            let inStop = stops.contains { previous.time >= $0.start && next.time < $0.end }
            if !inStop { moving += previous.distance(to: next) }
        }
        let trips = activity.filter { $0["type"] == "trip" }
        #expect(trips.count == long.count + 1, "\(trips)")
        let distance = trips.compactMap { $0["distance"].flatMap(Double.init) }.reduce(0, +)
        #expect(abs(distance - moving) / moving < 0.01, "trips \(distance) m, track while moving \(moving) m")
        #expect(trips.last?["reason"] == "shutdown")

        // Replay gives the same pauses, resumes and trips as the live run.
        let replay = Self.activity(try Self.replayed(Self.drive, settings))
        #expect(replay == activity)
    }

    @Test("no fix for no_fix_pause_after pauses with reason no_fix; the fix regained while driving resumes")
    func fixLossWhileDriving() throws {
        // The drive has two gaps of 16 s and 18 s without a fix, both while moving.
        let settings = "[activity]\nno_fix_pause_after = \"15s\"\npower_save = false"
        let live = Self.activity(try LiveRun.events(Self.drive, settings).events)
        let noFix = live.filter { $0["type"] == "pause" && $0["reason"] == "no_fix" }
        #expect(noFix.count == 2, "\(live)")
        for pause in noFix {
            let index = try #require(live.firstIndex(of: pause))
            #expect(live[index - 1]["type"] == "trip" && live[index - 1]["reason"] == "no_fix")
            #expect(live.dropFirst(index + 1).first?["type"] == "resume", "\(live)")
        }
        #expect(Self.activity(try Self.replayed(Self.drive, settings)) == live)
    }
}

/// Parked receivers, looped for half an hour of GPS time, through a real gpsd and in replay.
@Suite("Parked receivers do not resume")
struct StationaryCaptureTests {
    /// A stationary capture: the part where the receiver stands, in seconds from the first timed epoch of
    /// the log and of gpsd's capture (haicom-305N's has no time before its first fix, 10 s into the log),
    /// and why the agent pauses (haicom-305N's fixes there, at HDOP 21, are too inaccurate to use).
    struct Parked: CustomTestStringConvertible, Sendable {
        var log: String
        var part: Range<Double>
        var capturePart: Range<Double>
        var reason: String
        var testDescription: String { "\(log) \(part) s" }
    }

    static let captures = [
        Parked(log: "motorola-t805.log", part: 0..<100, capturePart: 0..<100, reason: "stationary"),
        Parked(log: "haicom-305N.log", part: 0..<40, capturePart: 0..<30, reason: "no_fix"),
        Parked(log: "bt451.log", part: 0..<4, capturePart: 0..<4, reason: "stationary"),
    ]

    @Test("30 minutes of a parked receiver: one pause, no resume, no trip", arguments: captures)
    func parked(_ capture: Parked) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try NMEALog(path: Fixtures.gpsdLog(capture.log))
        let looped = log.epochs(from: capture.part.lowerBound, to: capture.part.upperBound).looped(toCover: 1800)
        #expect(looped.span + looped.typicalInterval >= 1800)
        let path = directory.appendingPathComponent(capture.log).path
        try (looped.sentences.joined(separator: "\r\n") + "\r\n").write(
            toFile: path,
            atomically: true,
            encoding: .isoLatin1
        )

        let live = ActivityTests.activity(try LiveRun.events(path: path, "[activity]\npower_save = false").events)
        #expect(live.map { $0["type"] } == ["pause"], "\(live)")
        #expect(live.first?["reason"] == capture.reason)

        // The same half hour from gpsd's JSON, looped, in replay (power saving on: replay skips what an
        // unwatched gpsd would not send, and the probes find the receiver still parked).
        let chk = try ChkLog(path: Fixtures.gpsdLog(capture.log + ".chk"))
        let part = chk.lines(from: capture.capturePart.lowerBound, to: capture.capturePart.upperBound)
            .looped(toCover: 1800)
        let chkPath = directory.appendingPathComponent("looped.chk").path
        try ChkLog.write(part.lines, to: chkPath)
        let result = try WaymarkBinary.run(["replay", chkPath, "--print"])
        let replayed = ActivityTests.activity(try WaymarkBinary.events(result))
        #expect(replayed.map { $0["type"] } == ["pause"], "\(replayed)")
        #expect(replayed.first?["reason"] == capture.reason)
    }
}

import Foundation
import Testing
import WaymarkTestSupport

/// A board without a real-time clock boots in 1970, or with a clock that disagrees with its receiver's GPS
/// time (docs/events.md, "Which clock dates an event"). A drive through a real gpsd still lands in one
/// day's log, the first `status` is dated by the first fix, and every line and track names the board.
@Suite("One drive in one day's log, whatever the system clock says")
struct BootClockTests {
    /// Debian's libfaketime, preloaded into the agent alone: gpsd keeps the host's clock.
    static let libfaketime = [
        "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/arm-linux-gnueabihf",
    ]
    .map { $0 + "/faketime/libfaketime.so.1" }
    .first { FileManager.default.fileExists(atPath: $0) }

    /// The capture's GPS time is 2029-11-25 (gpsd 3.22 moves its 2010 dates 1024 weeks forward): the host's
    /// clock disagrees with it by years, and so does a clock that booted in 1970.
    enum SystemClock: String, CaseIterable, CustomTestStringConvertible {
        case host = "the host's synchronized clock"
        case bootedIn1970 = "a clock that booted in 1970"

        var testDescription: String { rawValue }
    }

    static let drive = "20100411_Geko_Regensburg.log.chk"
    static let day = "2029-11-25"

    @Test(arguments: SystemClock.allCases)
    func oneDriveLandsInOneDaysLog(_ clock: SystemClock) throws {
        var environment: [String: String] = [:]
        var launcher: [String] = []
        if clock == .bootedIn1970 {
            let library = try #require(
                Self.libfaketime,
                "Debian's faketime is missing (scripts/install-deps.sh --tests)"
            )
            // The monotonic clock of a board is not set from a real-time clock: only the system clock is off.
            environment = ["LD_PRELOAD": library, "FAKETIME": "@1970-01-01 00:00:10", "DONT_FAKE_MONOTONIC": "1"]
            // Through `env`, which libfaketime sets up first and which then becomes the agent (same pid, so
            // signals reach it): preloaded straight into the agent, libfaketime's setenv of its shared memory's
            // name at start moves `environ`, and the agent finds no arguments.
            launcher = ["/usr/bin/env"]
        }
        let gpsd = try GPSDTestServer(log: Fixtures.gpsdLog(Self.drive))
        let directory = try Fixtures.temporaryDirectory()
        defer {
            gpsd.stop()
            gpsd.removeFiles()
            try? FileManager.default.removeItem(at: directory)
        }
        let config = directory.appendingPathComponent("waymark.toml").path
        let logs = directory.appendingPathComponent("logs")
        try """
        [agent]
        device_id = "bus-0042"
        state_dir = "\(directory.appendingPathComponent("state").path)"
        log_dir = "\(logs.path)"
        runtime_dir = "\(directory.appendingPathComponent("run").path)"
        [places]
        file = "\(directory.appendingPathComponent("no-places.bin").path)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let arguments = ["run", "--print", "--config", config, "--gpsd", "127.0.0.1:\(gpsd.port)"]
        let agent = try WaymarkBinary.start(
            launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [WaymarkBinary.path] + arguments,
            executable: launcher.first ?? WaymarkBinary.path,
            adding: environment
        )
        try agent.wait(seconds: 60, "the end of the drive") { agent.stdout.contains("\"code\":\"no_device\"") }
        #expect(agent.interrupt() == 0, "\(agent.stderr)")
        // `env` made libfaketime's shared memory and never ran its clean-up.
        let pid = agent.process.processIdentifier
        for name in ["faketime_shm_\(pid)", "sem.faketime_sem_\(pid)"] { unlink("/dev/shm/" + name) }
        if clock == .bootedIn1970 { #expect(agent.stderr.contains("1970-01-01T"), "the agent's clock was not faked") }

        let files = try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent("events").path)
        #expect(files == ["\(Self.day).jsonl"])
        let lines = try String(contentsOf: logs.appendingPathComponent("events/\(Self.day).jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == agent.stdout.split(separator: "\n").map(String.init), "the log holds what was printed")
        let events = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.allSatisfy { $0["device"] as? String == "bus-0042" })
        #expect(events.allSatisfy { ($0["time"] as? String)?.hasPrefix(Self.day) == true })
        let seqs = events.compactMap { $0["seq"] as? Int }
        #expect(seqs == Array(1..<events.count + 1))
        // The first status was made before the first fix: dated back from it, not by the boot clock.
        let first = try #require(events.first)
        let firstFix = try #require(events.first { $0["type"] as? String == "location" })
        #expect(first["type"] as? String == "status")
        let firstTime = try #require(first["time"] as? String)
        #expect(firstTime <= firstFix["time"] as? String ?? "", "\(firstTime)")

        let trips = try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent("trips").path)
        #expect(!trips.isEmpty)
        for trip in trips {
            let track = try String(contentsOf: logs.appendingPathComponent("trips/\(trip)"), encoding: .utf8)
            #expect(track.contains("<name>bus-0042 trip \(Self.day)T") && track.contains("<src>bus-0042</src>"))
        }
    }
}

import Logging
import Testing
import WaymarkCore

@testable import WaymarkAgent

@Suite("systemd: notifications, status line, journal lines")
struct SystemdTests {
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: Int64(seconds * 1e9)) }

    @Test("the watchdog pings every half of WATCHDOG_USEC and a changed status goes at most once a second")
    func schedule() {
        var schedule = ServiceNotifications(watchdogTimeout: .seconds(10))
        #expect(
            schedule.ready(status: "connecting", now: Self.at(0)) == ["READY=1", "STATUS=connecting", "WATCHDOG=1"]
        )
        #expect(schedule.nextDeadline == Self.at(5))
        // (time, status line now, what is sent, the next deadline)
        let steps: [(Double, String, [String], Double)] = [
            (0.2, "connecting", [], 5),
            (0.5, "3D fix", [], 1),  // changed too soon after the last: held until 1 s
            (0.8, "3D fix, 9", [], 1),  // changed again: only the newest goes
            (1.01, "3D fix, 9", ["STATUS=3D fix, 9"], 5),
            (1.5, "3D fix, 9", [], 5),
            (4.0, "paused", ["STATUS=paused"], 5),
            (4.5, "3D fix, 9", [], 5),
            (4.7, "paused", [], 5),  // back to what was sent: nothing is held
            (5.0, "paused", ["WATCHDOG=1"], 10),
            (12.0, "moving", ["STATUS=moving", "WATCHDOG=1"], 17),
        ]
        for (time, line, sent, deadline) in steps {
            #expect(schedule.update(status: line, now: Self.at(time)) == sent, "at \(time) s")
            #expect(schedule.nextDeadline == Self.at(deadline), "at \(time) s")
        }
    }

    @Test("a line break in the status cannot become an assignment of its own")
    func statusIsOneLine() {
        var schedule = ServiceNotifications(watchdogTimeout: nil)
        #expect(
            schedule.ready(status: "receiver /dev/x\nSTOPPING=1", now: Self.at(0)).contains(
                "STATUS=receiver /dev/x STOPPING=1"
            )
        )
        #expect(schedule.update(status: "a\tb\u{7F}", now: Self.at(2)) == ["STATUS=a b "])
    }

    @Test("without a watchdog nothing wakes the agent but a held status line")
    func noWatchdog() {
        var schedule = ServiceNotifications(watchdogTimeout: nil)
        #expect(schedule.ready(status: "a", now: Self.at(0)) == ["READY=1", "STATUS=a"])
        #expect(schedule.nextDeadline == nil)
        #expect(schedule.update(status: "b", now: Self.at(0.5)).isEmpty)
        #expect(schedule.nextDeadline == Self.at(1))
        #expect(schedule.update(status: "b", now: Self.at(1)) == ["STATUS=b"])
        #expect(schedule.nextDeadline == nil)
    }

    @Test("the status line says what a person needs: connection, fix, activity, unsent events")
    func statusLine() {
        var line = StatusLine(server: "127.0.0.1:2947")
        #expect(line.text == "connecting to gpsd at 127.0.0.1:2947")
        line.observe(
            .unavailable(server: "127.0.0.1:2947", reason: "connection refused", retryIn: .milliseconds(7_200))
        )
        line.unsent = 12
        #expect(line.text == "gpsd unavailable at 127.0.0.1:2947, retrying in 8 s; 12 events unsent")
        line.observe(.unavailable(server: "127.0.0.1:2947", reason: "connection refused", retryIn: nil))
        #expect(line.text == "gpsd unavailable at 127.0.0.1:2947; 12 events unsent")
        line.observe(.connected(server: "[::1]:2947", release: "3.22"))
        line.status = Status(gpsd: .connected)
        line.unsent = 1
        #expect(line.text == "connected to gpsd at [::1]:2947, no receiver; 1 event unsent")
        line.status = Status(gpsd: .connected, device: "/dev/ttyACM0", fixMode: .noFix, satellitesUsed: 1)
        line.unsent = nil
        #expect(line.text == "no fix, 1 satellite")
        line.status.fixMode = .threeD
        line.status.satellitesUsed = 9
        #expect(line.text == "3D fix, 9 satellites, moving")
        let since = Timestamp(seconds: 1_775_916_150)  // 2026-04-11T14:02:30Z
        line.observe(Event(time: since, kind: .pause(PauseReport(reason: .stationary, position: nil, since: since))))
        #expect(line.text == "paused (stationary) since 14:02 UTC")
        line.observe(Event(time: since, kind: .pause(PauseReport(reason: .noFix, position: nil, since: nil))))
        #expect(line.text == "paused (no fix)")
        line.observe(Event(time: since, kind: .resume(ResumeReport(reason: .speed, position: nil, distance: nil))))
        #expect(line.text == "3D fix, 9 satellites, moving")
    }

    @Test("the status line names the open alarms, oldest first, before the unsent events")
    func statusLineAlarms() {
        var line = StatusLine(server: "127.0.0.1:2947")
        line.status = Status(gpsd: .connected, device: "/dev/ttyACM0", fixMode: .threeD, satellitesUsed: 9)
        line.unsent = 3
        var health = HealthMonitor()
        _ = health.regionFile("/etc/waymark/regions.geojson", rejection: "truncated", now: Self.at(1))
        line.alarms = Array(health.open.values)
        #expect(
            line.text
                == "3D fix, 9 satellites, moving; alarm region_file_rejected /etc/waymark/regions.geojson; 3 events unsent"
        )
        _ = health.sink("http", refusal: "HTTP 401", now: Self.at(0))
        line.alarms = Array(health.open.values)
        #expect(
            line.text
                == "3D fix, 9 satellites, moving; alarms sink_refused http, region_file_rejected "
                + "/etc/waymark/regions.geojson; 3 events unsent"
        )
    }

    @Test("NOTIFY_SOCKET: a path or an abstract name, nothing else")
    func socketAddresses() throws {
        let path = try #require(SystemdNotifier.socketAddress("/run/systemd/notify"))
        #expect(Array(path.suffix(20)) == Array("/run/systemd/notify".utf8) + [0])
        let abstract = try #require(SystemdNotifier.socketAddress("@waymark/notify"))
        #expect(Array(abstract.suffix(15)) == [0] + Array("waymark/notify".utf8))
        #expect(SystemdNotifier.socketAddress("relative/path") == nil)
        #expect(SystemdNotifier.socketAddress("") == nil)
        #expect(SystemdNotifier.socketAddress("/" + String(repeating: "x", count: 200)) == nil)
    }

    @Test("WATCHDOG_USEC counts only for the pid it names")
    func watchdogFromEnvironment() throws {
        func notifier(_ variables: [String: String]) -> SystemdNotifier? {
            SystemdNotifier.fromEnvironment { variables[$0] }
        }
        #expect(notifier([:]) == nil)
        #expect(notifier(["NOTIFY_SOCKET": "/tmp/x"])?.watchdogTimeout == nil)
        #expect(notifier(["NOTIFY_SOCKET": "/tmp/x", "WATCHDOG_USEC": "30000000"])?.watchdogTimeout == .seconds(30))
        #expect(notifier(["NOTIFY_SOCKET": "/tmp/x", "WATCHDOG_USEC": "0"])?.watchdogTimeout == nil)
        let other = ["NOTIFY_SOCKET": "/tmp/x", "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "1"]
        #expect(notifier(other)?.watchdogTimeout == nil)
        let garbled = ["NOTIFY_SOCKET": "/tmp/x", "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "x"]
        #expect(notifier(garbled)?.watchdogTimeout == nil)
        #expect(SystemdNotifier.unusableSocket { ["NOTIFY_SOCKET": "vsock:2:3"][$0] } != nil)
        #expect(SystemdNotifier.unusableSocket { ["NOTIFY_SOCKET": "/run/systemd/notify"][$0] } == nil)
        #expect(SystemdNotifier.unusableSocket { _ in nil } == nil)
    }

    @Test("journal lines: the syslog priority first, no time, one line per entry")
    func journalLines() {
        #expect(
            JournalLogHandler.line(.error, "waymark.toml:3: [gpsd] port = 0") == "<3>waymark.toml:3: [gpsd] port = 0\n"
        )
        #expect(
            JournalLogHandler.line(.warning, "gone", metadata: ["code": "no_device", "b": "1"])
                == "<4>gone b=1 code=no_device\n"
        )
        #expect(JournalLogHandler.line(.info, "two\nlines") == "<6>two lines\n")
        #expect(JournalLogHandler.line(.error, "e", metadata: ["error": "a\nb"]) == "<3>e error=a b\n")
        #expect(JournalLogHandler.line(.debug, "d") == "<7>d\n")
        #expect(JournalLogHandler.line(.trace, "t") == "<7>t\n")
        #expect(JournalLogHandler.line(.notice, "n") == "<5>n\n")
        #expect(JournalLogHandler.line(.critical, "c") == "<2>c\n")
    }

    @Test("JOURNAL_STREAM must name stderr's own device and inode")
    func journalStream() {
        #expect(DiagnosticOutput.streamMatches("8:12345", device: 8, inode: 12345))
        #expect(!DiagnosticOutput.streamMatches("8:12346", device: 8, inode: 12345))
        #expect(!DiagnosticOutput.streamMatches("8", device: 8, inode: 12345))
        #expect(!DiagnosticOutput.streamMatches("x:y", device: 8, inode: 12345))
    }

    @Test("the default device id skips names that name no board")
    func deviceID() {
        let machine = "0123456789abcdef0123456789abcdef"
        #expect(AgentSettings.deviceID(hostName: "bus-0042", machineID: machine) == "bus-0042")
        #expect(AgentSettings.deviceID(hostName: "localhost", machineID: machine) == machine)
        #expect(AgentSettings.deviceID(hostName: "", machineID: machine) == machine)
        #expect(AgentSettings.deviceID(hostName: "bus 42", machineID: machine) == machine)
        #expect(AgentSettings.deviceID(hostName: nil, machineID: nil) == nil)
    }
}

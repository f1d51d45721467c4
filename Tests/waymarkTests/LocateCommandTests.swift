import Foundation
import Testing
import WaymarkTestSupport

/// `waymark locate` through the built binary against a real gpsd.
@Suite("waymark locate")
struct LocateCommandTests {
    /// Runs `waymark locate ARGUMENTS`; returns the result, its one JSON object and how long it took.
    static func locate(_ arguments: [String]) throws -> (WaymarkBinary.Result, [String: Any], Double) {
        let started = Date()
        let result = try WaymarkBinary.run(["locate"] + arguments, timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        let objects = try WaymarkBinary.events(result)
        #expect(objects.count == 1, "exactly one JSON object on stdout: \(result.stdout)")
        return (result, try #require(objects.first), elapsed)
    }

    @Test("a receiver with a fix: the first fix that meets --accuracy, exit 0")
    func found() throws {
        let server = try GPSDTestServer(log: Fixtures.gpsdLog("motorola-t805.log"))
        defer { server.removeFiles() }
        // The log's fixes report eph 41.8 m and 58.9 m; its first fix is a 41.8 m one.
        let (result, object, elapsed) = try Self.locate(["--gpsd", "127.0.0.1:\(server.port)", "--accuracy", "50"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(object["type"] as? String == "location")
        #expect(object["stop_reason"] as? String == "accuracy")
        #expect(object["meets_accuracy"] as? Bool == true)
        #expect(object["h_acc"] as? Double == 41.8)
        #expect(object["mode"] as? Int == 3)
        #expect((object["lat"] as? Double).map { abs($0 - 48.6657) < 0.001 } == true)
        #expect((object["lon"] as? Double).map { abs($0 - 2.2482) < 0.001 } == true)
        #expect((object["time"] as? String)?.hasPrefix("2027-08-03T21:26:") == true)
        #expect(object["fixes_seen"] as? Int == 1)
        #expect(elapsed < 10)
        #expect(result.stderr.contains("±41.8 m (3D fix of 2027-08-03T21:26:15.879Z): meets the desired accuracy"))
    }

    @Test("no fix meets --accuracy: the best one at the timeout, not meeting it, exit 0")
    func bestAtTimeout() throws {
        let server = try GPSDTestServer(log: Fixtures.gpsdLog("motorola-t805.log"))
        defer { server.removeFiles() }
        let (result, object, elapsed) = try Self.locate([
            "--gpsd", "127.0.0.1:\(server.port)", "--accuracy", "10", "--timeout", "3",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(object["stop_reason"] as? String == "timeout")
        #expect(object["meets_accuracy"] as? Bool == false)
        #expect(object["h_acc"] as? Double == 41.8, "the 58.9 m fixes that followed did not replace it")
        #expect((object["fixes_seen"] as? Int ?? 0) > 10)
        #expect((object["elapsed_s"] as? Double).map { $0 >= 3 && $0 < 4 } == true)
        #expect(elapsed >= 3 && elapsed < 10)
        #expect(result.stderr.components(separatedBy: "best so far").count - 1 == 1, "one line per improvement")
    }

    @Test("a receiver without a fix: a timeout error, exit 3")
    func noFix() throws {
        let server = try GPSDTestServer(log: Fixtures.gpsdLog("bu303-nofix.log"))
        defer { server.removeFiles() }
        let (result, object, elapsed) = try Self.locate(["--gpsd", "127.0.0.1:\(server.port)", "--timeout", "3"])
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(object["type"] as? String == "error")
        #expect(object["code"] as? String == "timeout")
        #expect((object["message"] as? String)?.contains("epochs without a fix") == true)
        #expect(object["lat"] == nil)
        #expect(elapsed >= 3 && elapsed < 10)
    }

    @Test("nothing listens on the port: gpsd_unavailable, exit 2, within 2 s")
    func gpsdUnavailable() throws {
        let port = try GPSDTestServer.freePort()
        let (result, object, elapsed) = try Self.locate(["--gpsd", "127.0.0.1:\(port)"])
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(object["code"] as? String == "gpsd_unavailable")
        #expect((object["message"] as? String)?.contains("127.0.0.1:\(port)") == true)
        #expect(elapsed < 2, "took \(elapsed) s")
    }

    @Test("gpsd without a receiver: no_device after the 2 s grace, exit 4")
    func noDevice() throws {
        let gpsd = try GPSDWithoutReceiver()
        let (result, object, elapsed) = try Self.locate(["--gpsd", "127.0.0.1:\(gpsd.port)"])
        #expect(result.status == 4, "stderr: \(result.stderr)")
        #expect(object["code"] as? String == "no_device")
        #expect((object["elapsed_s"] as? Double).map { $0 >= 2 && $0 < 3 } == true)
        #expect(elapsed >= 2 && elapsed < 10)
        #expect(result.stderr.contains("gpsd has no receiver; waiting 2 s for one to appear"))
    }

    @Test(
        "bad values are refused with a message and exit 64",
        arguments: [
            (["--accuracy", "-5"], "--accuracy -5: must be a number of metres greater than 0, or best"),
            (["--accuracy", "0"], "--accuracy 0: must be"), (["--accuracy", "near"], "--accuracy near: must be"),
            (["--timeout", "0"], "--timeout 0: must be more than 0"), (["--timeout", "-3"], "--timeout -3: must be"),
            (["--max-age", "-1"], "--max-age -1: must be 0 to 86400 seconds"),
            (["--gpsd", "host:99999"], "--gpsd host:99999: expected HOST"),
        ]
    )
    func badValues(arguments: [String], message: String) throws {
        let result = try WaymarkBinary.run(["locate"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a configuration file that cannot be used: exit 78, not 2 (which is gpsd unavailable)")
    func badConfiguration() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("waymark.toml").path
        try "[gpsd]\nport = -5\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WaymarkBinary.run(["locate", "--config", path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("waymark.toml:2: [gpsd] port = -5: must be"), "stderr: \(result.stderr)")
    }

    @Test func help() throws {
        let result = try WaymarkBinary.run(["locate", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: waymark locate"))
        #expect(result.stdout.contains("--accuracy <metres|best>"))
    }
}

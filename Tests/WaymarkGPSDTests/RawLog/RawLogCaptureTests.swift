import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkGPSD

/// What a private gpsd makes of a raw receiver log is the capture gpsd 3.22's own regression run made of it.
@Suite("A raw log's capture through a private gpsd")
struct RawLogCaptureTests {
    static let gpsd = GPSDProgram(path: "/usr/sbin/gpsd")

    @Test("the capture of each raw log is its .chk, byte for byte", arguments: Fixtures.gpsdLogsWithCapture())
    func captureIsTheChk(log: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog(log))))
        let chk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog(log + ".chk"))))
        let capture = try RawLogCapture.record(bytes, from: log, gpsd: Self.gpsd)
        #expect(capture.endReported)
        #expect(capture.release == "3.22")
        #expect(capture.bytes.count == chk.count, "\(log): \(capture.bytes.count) bytes, the .chk \(chk.count)")
        #expect(capture.bytes == chk, "\(log): first difference at byte \(Self.firstDifference(capture.bytes, chk))")
        let jsonLines = chk.split(separator: UInt8(ascii: "\n")).filter { $0.first == UInt8(ascii: "{") }.count
        #expect(capture.reports == jsonLines)
    }

    @Test("Replay.open takes a raw log through gpsd: the same updates as its .chk")
    func openTakesARawLog() throws {
        let log = Fixtures.gpsdLog("rst39.log")
        let raw = try Replay.open(contentsOf: log, gpsdOverride: Self.gpsd.path)
        let origin = try #require((raw as? CaptureReplay)?.rawLog)
        #expect(origin.program == Self.gpsd && origin.endReported && origin.reports > 0)
        let updates = Array(sequence(state: raw) { $0.next() })
        #expect(updates == (try collectReplay(log + ".chk", decoder: .builtin)))
        #expect(updates.locations.count == 40)
    }

    @Test("a log that ends inside a packet still ends: the newlines before # EOF close the packet")
    func cutOffPacket() throws {
        // A UBX header announcing 512 bytes of payload, and only 3 of them.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog("haicom-305N.log"))))
        let cut: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x02, 0x01, 0x02, 0x03]
        let capture = try RawLogCapture.record(bytes + cut, from: "cut.log", gpsd: Self.gpsd)
        #expect(capture.endReported)
        let chk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.gpsdLog("haicom-305N.log.chk"))))
        #expect(capture.bytes == chk)
    }

    @Test("no gpsd: the error names what was needed and how to get it")
    func missingProgram() throws {
        #expect(throws: ReplayError.self) {
            try GPSDProgram.locate(override: "/nonexistent/gpsd", searchPath: nil, for: "x.log is a raw log")
        }
        do {
            _ = try GPSDProgram.locate(override: "/etc", searchPath: nil, for: "x.log is a raw log")
            Issue.record("a directory taken for gpsd")
        } catch {
            #expect(error.code == .gpsdMissing)
            #expect(
                error.description == "x.log is a raw log, and GPSD=/etc is no executable file: set GPSD to gpsd's path"
            )
        }
        #expect(try GPSDProgram.locate(override: nil, searchPath: "/nonexistent", for: "").path == "/usr/sbin/gpsd")
        // Found in PATH when not in a standard place.
        let inPath = try GPSDProgram.locate(override: nil, searchPath: "/nonexistent:/usr/sbin", for: "", places: [])
        #expect(inPath.path == "/usr/sbin/gpsd")
        // A machine without gpsd.
        do {
            let places = ["/nonexistent/sbin/gpsd"]
            _ = try GPSDProgram.locate(
                override: nil,
                searchPath: "/nonexistent",
                for: "x.log is a raw log",
                places: places
            )
            Issue.record("gpsd found where there is none")
        } catch {
            #expect(error.code == .gpsdMissing)
            #expect(
                error.description
                    == "x.log is a raw log, and gpsd is not installed (no /nonexistent/sbin/gpsd nor gpsd in PATH): install "
                    + "Debian's gpsd package, or set GPSD to gpsd's path"
            )
        }
    }

    static func firstDifference(_ one: [UInt8], _ other: [UInt8]) -> Int {
        zip(one, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(one.count, other.count)
    }
}

import Foundation
import Testing

@testable import WaymarkGPSD

/// The private gpsd ends whatever happens to it.
@Suite("The private gpsd of a raw log's replay")
struct PrivateGPSDTests {
    @Test("stop() returns when the child was reaped elsewhere (waitpid fails with ECHILD)")
    func stopAfterReapedElsewhere() throws {
        // A child that exits at once, whatever its arguments.
        let gpsd = try PrivateGPSD(program: GPSDProgram(path: "/bin/true"), port: 1, device: "tcp://127.0.0.1:1")
        var status: Int32 = 0
        #expect(waitpid(gpsd.pid, &status, 0) == gpsd.pid)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let stopping = gpsd
        Thread.detachNewThread {
            stopping.stop()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success, "stop() still waits 5 s after the child was reaped")
        #expect(gpsd.hasExited)
    }
}

import Glibc
import Testing
import WaymarkSystem

/// ``SystemError``'s sentences and ``SystemCall``'s retries: what an operator reads when a call fails.
@Suite struct SystemErrorTests {
    @Test("a failed call says what, on which file, and the system's reason")
    func description() {
        let error = SystemError(call: "open", path: "/x/y", errno: ENOENT)
        #expect(error.description == "cannot open /x/y: No such file or directory")
        #expect(error.reason == "No such file or directory")
        #expect(error.withoutPath.description == "cannot open: No such file or directory")
        #expect(
            SystemError(call: "rename /a.tmp to", path: "/a", errno: EACCES).description
                == "cannot rename /a.tmp to /a: Permission denied"
        )
    }

    @Test("the errno of the moment is the default, taken when the error is made")
    func currentErrno() {
        errno = EEXIST
        let error = SystemError(call: "create", path: "/d")
        errno = 0
        #expect(error.errno == EEXIST && error.description == "cannot create /d: File exists")
    }

    @Test("a reason more precise than the system's words replaces them")
    func preciseReason() {
        let error = SystemError(call: "map", path: "/d", errno: ENODEV, reason: "not a regular file")
        #expect(error.description == "cannot map /d: not a regular file")
    }

    @Test("a call interrupted by a signal (EINTR) is made again; another failure is returned at once")
    func retryingInterrupts() {
        var calls = 0
        let result = SystemCall.retryingInterrupts { () -> Int in
            calls += 1
            guard calls == 3 else {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5 && calls == 3)

        calls = 0
        let failed = SystemCall.retryingInterrupts { () -> Int32 in
            calls += 1
            errno = EBADF
            return -1
        }
        #expect(failed == -1 && calls == 1 && errno == EBADF)
    }
}

import WaymarkCore

/// Replays a gpsd JSON capture (what `gpspipe -w` writes; gpsd's `.chk` files) line by line through
/// Waymark's decoder (``CaptureDecoder/builtin``), held to libgps's own `gps_unpack` value for value, or with
/// ``CaptureDecoder/libgps`` through `gps_unpack` itself: live and replay share one mapping either way.
public final class CaptureReplay: ReplaySource {
    private let bytes: [UInt8]
    private let decoder: CaptureDecoder
    private var offset = 0
    private let data = GPSDData()
    private var builder = SourceEventBuilder()
    private var clock: ReplayClock
    private var pending: [SourceUpdate] = []
    private var pendingIndex = 0
    private var finished = false
    /// Lines read so far.
    public private(set) var lineCount = 0
    /// NMEA sentences gpsd echoed into the capture (`$…`, `!…`): counted, not replayed (gpsd's JSON beside
    /// them carries what they said).
    public private(set) var nmeaSentences = 0
    /// Where the capture came from when gpsd made it of a raw receiver log; nil for a capture file.
    public let rawLog: RawLogCapture.Origin?

    public init(bytes: [UInt8], decoder: CaptureDecoder = .builtin, rawLog: RawLogCapture.Origin? = nil) {
        self.bytes = bytes
        self.decoder = decoder
        self.rawLog = rawLog
        clock = ReplayClock(start: Self.firstTime(in: bytes) ?? Timestamp(seconds: 0))
        pending.reserveCapacity(8)
        pending.append(clock.update(.connected(server: ReplayClock.server, release: nil)))
    }

    public func next() -> SourceUpdate? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard !finished else { return nil }
            readLine()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private func readLine() {
        guard offset < bytes.count else {
            finished = true
            for event in builder.finish() { pending.append(clock.update(event)) }
            return
        }
        let message = bytes.withUnsafeBufferPointer { all -> GPSDMessage in
            var end = offset
            while end < all.count, all[end] != UInt8(ascii: "\n") { end += 1 }
            var lineEnd = end
            while lineEnd > offset, all[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let line = UnsafeBufferPointer(rebasing: all[offset..<lineEnd])
            offset = end + 1
            if let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
                nmeaSentences += 1
                return .echo
            }
            if decoder == .builtin, let message = BuiltinDecoder.decode(line) { return message }
            return data.unpack(line: line)
        }
        lineCount += 1
        // A timed report moves the simulated clock first, then arrives at its own time. (A capture does not
        // say how soon after an untimed TPV the next one came: replay takes the gap from the GPS times.)
        if case .fix(let report) = message, let time = report.time {
            clock.observe(time)
            // A pending epoch whose quiet period ended before this report closed then, as it would live.
            if let deadline = builder.deadline, clock.monotonic >= deadline {
                for event in builder.flush(at: deadline) { pending.append(clock.update(event, at: deadline)) }
            }
        }
        for event in builder.handle(message, at: clock.monotonic) { pending.append(clock.update(event)) }
    }

    /// The first `"time":"…"` in the capture: the replay's wall clock before its first fix.
    private static func firstTime(in bytes: [UInt8]) -> Timestamp? {
        let key = Array(#""time":""#.utf8)
        return bytes.withUnsafeBufferPointer { all -> Timestamp? in
            var index = 0
            while index + key.count + 24 <= all.count {
                if all[index] == key[0], all[index..<index + key.count].elementsEqual(key) {
                    let start = index + key.count
                    var end = start
                    while end < all.count, all[end] != UInt8(ascii: "\""), end - start < 40 { end += 1 }
                    if let time = Timestamp(iso8601: String(decoding: all[start..<end], as: UTF8.self)) {
                        return time
                    }
                }
                index += 1
            }
            return nil
        }
    }
}

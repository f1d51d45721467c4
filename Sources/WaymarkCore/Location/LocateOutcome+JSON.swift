extension LocateOutcome {
    /// Appends the outcome as one JSON object and a newline: `waymark locate`'s answer on stdout.
    ///
    /// A location is written as a `location` event is (``EventEncoder``, the same keys), followed by
    /// `meets_accuracy`, `stop_reason`, `age_s` (seconds from the fix's arrival to the end), `elapsed_s`,
    /// `fixes_seen` and `fixes_ignored`. A failure is written as an `error` event (`code`, `message`, `time`
    /// the system time at the end) followed by the last three. It has no `seq`: the answer is not part of
    /// the device's event stream.
    public func encode(into buffer: inout [UInt8], encoder: EventEncoder = .init()) {
        let event: Event
        var meetsAccuracy: Bool?
        switch result {
        case .found(let found):
            event = Event(time: found.location.time, received: found.received, kind: .location(found.location))
            meetsAccuracy = found.meetsAccuracy
        case .failed(let report):
            event = Event(time: time, kind: .error(report))
        }
        encoder.encode(event, into: &buffer, numbered: false) { writer in
            if let meetsAccuracy { writer.boolean("meets_accuracy", meetsAccuracy) }
            if let found {
                writer.string("stop_reason", found.stopReason.rawValue)
                writer.number("age_s", Self.milliseconds(found.age))
            }
            writer.number("elapsed_s", Self.milliseconds(elapsed))
            writer.integer("fixes_seen", Int64(fixesSeen))
            writer.integer("fixes_ignored", Int64(fixesIgnored))
        }
    }

    /// The outcome as one line of JSON, without the newline.
    public func jsonLine(encoder: EventEncoder = .init()) -> String {
        var buffer: [UInt8] = []
        encode(into: &buffer, encoder: encoder)
        return String(decoding: buffer.dropLast(), as: UTF8.self)
    }

    /// Seconds, rounded to the millisecond.
    private static func milliseconds(_ duration: Duration) -> Double {
        (duration.secondsValue * 1000).rounded() / 1000
    }
}

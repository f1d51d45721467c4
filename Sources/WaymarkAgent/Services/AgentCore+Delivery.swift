import WaymarkCore
import WaymarkStore

/// Events numbered, stored, let through the deferral windows and handed to the printing sink and the log.
extension AgentCore {
    /// Ends the deferral window whose timeout passed before `now`.
    mutating func expireWindow(now: MonotonicInstant, wallClock: Timestamp) {
        guard storage != nil, let report = deferral.advance(to: now) else { return }
        emit(closeWindow(report, time: eventTime(at: now, wallClock: wallClock), now: now))
    }

    /// Numbers the events one by one; with a spool, stores each and lets the deferral window see it, ending
    /// the window (its `deferred_finished` follows the event that ended it) or releasing the event at once
    /// when nothing is deferred. Then the printing sink gets them.
    ///
    /// Events made before the agent can date them wait in ``untimed`` first; they are logged as they come.
    mutating func deliver(_ events: inout [Event], now: MonotonicInstant) {
        for event in events { operating.observe(event) }
        let logged = untimed.isWaiting
        if logged { for event in events { log(event) } }
        events = untimed.admit(events, at: now, clock: eventClock)
        number(&events, now: now, logged: logged)
    }

    /// Numbers and stores the events, as ``deliver(_:now:)`` says; `logged` when they were logged already.
    mutating func number(_ events: inout [Event], now: MonotonicInstant, logged: Bool) {
        guard !events.isEmpty else { return }
        if let places {
            for index in events.indices { places.name(&events[index], sites: pipeline.regions.lookup) }
        }
        guard let storage else {
            sequencer.number(&events)
            for event in events { operating.count(event) }
            sink.deliver(events, lines: sink.wantsLines ? events.map { StoredEvent.line($0, encoder: encoder) } : [])
            if !logged { for event in events { log(event) } }
            return
        }
        var numbered: [Event] = []
        var lines: [[UInt8]] = []
        numbered.reserveCapacity(events.count + 1)
        lines.reserveCapacity(events.count + 1)
        for var event in events {
            sequencer.number(&event)
            let stored = StoredEvent(event, encoder: encoder)
            storage.append(stored)
            if case .trip(let trip) = event.kind {
                storage.clearOpenTrip()
                keep(odometer: trip.odometer)
            }
            numbered.append(event)
            lines.append(stored.line)
            let wasDeferring = deferral.isDeferring
            let report = deferral.observe(event, bytes: stored.line.count, now: now)
            if !wasDeferring && deferral.isDeferring { storage.windowOpened(at: event.seq) }
            if let report {
                let finished = closeWindow(report, time: event.time, now: now)
                numbered.append(finished.event)
                lines.append(finished.line)
            } else if !deferral.isDeferring {
                storage.release(through: event.seq, closingWindow: false)
            }
        }
        events = numbered
        for event in events { operating.count(event) }
        sink.deliver(events, lines: sink.wantsLines ? lines : [])
        // A window closed here was not among the events logged as they started to wait.
        for event in events where !logged || event.type == "deferred_finished" { log(event) }
    }

    /// Ends a deferral window: its `deferred_finished` is numbered and stored, and the window's batch is
    /// released to the sinks.
    mutating func closeWindow(
        _ report: DeferralReport,
        time: Timestamp,
        now: MonotonicInstant
    ) -> (event: Event, line: [UInt8]) {
        var finished = Event(time: time, kind: .deferredFinished(report))
        sequencer.number(&finished)
        let stored = StoredEvent(finished, encoder: encoder)
        storage?.append(stored)
        storage?.release(through: finished.seq, closingWindow: true)
        return (finished, stored.line)
    }

    /// Hands an event made outside ``deliver(_:now:)`` to the printing sink and the log.
    mutating func emit(_ finished: (event: Event, line: [UInt8])) {
        operating.observe(finished.event)
        operating.count(finished.event)
        sink.deliver([finished.event], lines: sink.wantsLines ? [finished.line] : [])
        log(finished.event)
    }
}

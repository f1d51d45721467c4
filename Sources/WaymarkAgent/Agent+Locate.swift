import WaymarkClocks
import WaymarkCore
import WaymarkGPSD
import WaymarkSystem

extension Agent {
    /// Finds the current location once (`waymark locate`): runs a ``LocateSearch`` over a live gpsd
    /// connection until it ends, waking at the search's deadline when gpsd sends nothing.
    ///
    /// Returns within milliseconds when gpsd cannot be reached at the first attempt, and otherwise no later
    /// than the search's timeout (plus the time to hand the last update over), or at SIGTERM or SIGINT, with
    /// the best fix so far. The connection's thread is told to stop when this returns.
    /// - Parameters:
    ///   - search: the rules of the search.
    ///   - gpsd: where gpsd listens, the receiver to watch, and the reconnect delays for a connection lost
    ///     during the search.
    ///   - progress: called on the caller's task for each step worth telling a person.
    public static func locate(
        _ search: LocateSearch.Configuration,
        gpsd: GPSDSettings,
        progress: (LocateProgress) -> Void
    ) async -> LocateOutcome {
        ignoreBrokenPipes()
        let connection = GPSDConnection(GPSDConnection.Configuration(gpsd))
        var state = LocateSearch(search, start: SystemClocks.monotonic())
        let (inputs, input) = AsyncStream.makeStream(of: LocateInput.self)
        let stop = await StopSignals { input.yield(.stop) }
        let outcome = await searchLoop(&state, inputs, input, connection, progress)
        withExtendedLifetime(stop) {}
        return outcome
    }

    /// The search's loop over its inputs.
    private static func searchLoop(
        _ state: inout LocateSearch,
        _ inputs: AsyncStream<LocateInput>,
        _ input: AsyncStream<LocateInput>.Continuation,
        _ connection: GPSDConnection,
        _ progress: (LocateProgress) -> Void
    ) async -> LocateOutcome {
        await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                for await batch in connection.batches() { input.yield(.updates(batch)) }
            }
            defer {
                input.finish()
                tasks.cancelAll()
            }
            var pending = inputs.makeAsyncIterator()
            var alarm: MonotonicInstant?
            var rang = true
            while true {
                // Wake at the deadline (again, if the alarm rang early); a new deadline sets a new alarm, and an
                // alarm that rings for an earlier deadline is only an extra look at the time.
                if let deadline = state.deadline, deadline != alarm || rang {
                    alarm = deadline
                    let delay = max(deadline - SystemClocks.monotonic(), Duration.zero)
                    tasks.addTask {
                        guard (try? await Task.sleep(for: delay, clock: .suspending)) != nil else { return }
                        input.yield(.alarm)
                    }
                }
                guard let next = await pending.next() else { break }
                rang = false
                switch next {
                case .updates(let batch):
                    for update in batch where state.outcome == nil {
                        for step in state.handle(update) { progress(step) }
                    }
                case .alarm:
                    rang = true
                    state.tick(at: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
                case .stop:
                    state.stop(at: SystemClocks.monotonic(), wallClock: SystemClocks.wall())
                }
                if let outcome = state.outcome { return outcome }
            }
            preconditionFailure("the inputs of a search end only after it")
        }
    }
}

/// What wakes a search: updates from gpsd, its deadline, or a stop (SIGTERM, SIGINT).
private enum LocateInput: Sendable {
    case updates([SourceUpdate])
    case alarm
    case stop
}

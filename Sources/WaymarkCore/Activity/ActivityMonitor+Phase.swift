extension ActivityMonitor {
    /// Whether updates are paused and, while they are, when the receiver is probed.
    ///
    /// Standing still (the monitor's stay) is not part of the phase: the vehicle stands still before it pauses, and
    /// without ever pausing when automatic pausing is off; a no-fix pause before any usable fix has no stay. Nor is
    /// the loss of fix acted on, which is read only while active but outlives a pause that a reload ends.
    enum Phase: Sendable {
        /// Updates flow.
        case active
        /// The `pause` in force, and the probes of the receiver while it lasts.
        case paused(PauseReport, probe: Probe)

        var pause: PauseReport? {
            guard case .paused(let pause, _) = self else { return nil }
            return pause
        }

        /// Whether the receiver should be watched: always, but while paused between two probes.
        var wantsWatch: Bool {
            guard case .paused(_, .waiting) = self else { return true }
            return false
        }

        /// Changes the probes of the pause in force; nothing while active.
        mutating func probe(_ change: (inout Probe) -> Void) {
            guard case .paused(let pause, var probe) = self else { return }
            change(&probe)
            self = .paused(pause, probe: probe)
        }
    }

    /// The probes of the receiver while paused with power saving: the watch is dropped, and taken again every
    /// `probe_interval` for at most `probe_timeout`, or until enough quiet fixes show the vehicle still stands.
    enum Probe: Sendable {
        /// No probes (power saving is off): the receiver stays watched.
        case off
        /// Power saving was turned on, or its interval changed: the next call that knows the time schedules one.
        case pending
        /// The receiver is not watched until the next probe.
        case waiting(next: MonotonicInstant)
        /// A probe watches the receiver since `started`; the last `quietFixes` showed no movement.
        case running(started: MonotonicInstant, quietFixes: Int)

        /// The next probe after `instant`, or none without power saving.
        static func scheduled(after instant: MonotonicInstant, _ settings: ActivitySettings) -> Probe {
            settings.powerSave ? .waiting(next: instant + settings.probeInterval) : .off
        }

        /// The next instant a probe starts or ends.
        func deadline(_ settings: ActivitySettings) -> MonotonicInstant? {
            switch self {
            case .off, .pending: nil
            case .waiting(let next): next
            case .running(let started, _): started + settings.probeTimeout
            }
        }

        /// A fix while probing showed movement: the count of quiet fixes starts again.
        mutating func sawMovement() {
            if case .running(let started, _) = self { self = .running(started: started, quietFixes: 0) }
        }

        /// A fix while probing showed none: enough of them in a row, and the vehicle still stands; the receiver
        /// sleeps until the next probe.
        mutating func sawQuietFix(arrival: MonotonicInstant, _ settings: ActivitySettings) {
            guard case .running(let started, let quiet) = self else { return }
            self =
                quiet + 1 >= ActivitySettings.confirmingFixes
                ? .waiting(next: max(started + settings.probeInterval, arrival))
                : .running(started: started, quietFixes: quiet + 1)
        }
    }
}

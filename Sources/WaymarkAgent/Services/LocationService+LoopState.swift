import WaymarkCore
import WaymarkSystem

extension LocationService {
    /// What the loop keeps from one step to the next, behind one lock. gpsd's batches run on the connection's
    /// thread that read them, so that a fix wakes no other thread; everything else runs on `waymark core`.
    final class LoopState: @unchecked Sendable {
        private let lock = MonotonicCondition()
        var core: AgentCore
        let operations: OperationsOutput
        let reporter: SystemdReporter?
        let executor: ThreadExecutor
        var watching = true
        var scanningContinuously = true
        var saveFailed = false
        /// Set as the loop stops: a batch the connection read after that is not processed.
        var stopped = false
        /// What the executor's alarm runs (``setAlarm(_:)``), made once; cleared as the loop stops.
        var alarmAction: (@Sendable () -> Void)?

        init(core: AgentCore, operations: OperationsOutput, reporter: SystemdReporter?, executor: ThreadExecutor) {
            self.core = core
            self.operations = operations
            self.reporter = reporter
            self.executor = executor
        }

        func locked<T>(_ body: () -> T) -> T { lock.locked(body) }

        /// When the loop next has something to do without input. The core is read in place (`inout`): read through
        /// the class's property, its getters ran on a copy of the whole core, every reference in it retained and
        /// released, at every batch (half of what setting the alarm cost, seen in callgrind).
        var nextDeadline: MonotonicInstant? { Self.nextDeadline(of: &core, operations) }

        private static func nextDeadline(of core: inout AgentCore, _ operations: OperationsOutput) -> MonotonicInstant?
        {
            .earliest(core.nextDeadline, core.nextCommit, operations.nextDeadline)
        }
    }
}

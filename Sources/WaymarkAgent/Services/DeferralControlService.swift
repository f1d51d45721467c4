import Logging
import ServiceLifecycle
import UnixSignals

/// `waymark defer off` and `waymark defer on` on a running agent: SIGUSR1 ends deferral (the open window
/// ends with reason `disabled` and its batch goes to the sinks), SIGUSR2 resumes it with the `[deferred]`
/// thresholds. Either lasts until the next reload or restart, which apply `[deferred] enabled` again.
///
/// The command finds the agent by `state_dir/waymark.pid`, which the service writes once its signal
/// handlers are in place (a signal before them would end the process) and removes when it stops.
struct DeferralControlService: Service {
    static let offSignal = UnixSignal.sigusr1
    static let onSignal = UnixSignal.sigusr2

    let locationService: LocationService
    let pidFile: PIDFile
    let logger: Logger

    func run() async {
        let signals = await UnixSignalsSequence(trapping: Self.offSignal, Self.onSignal)
        do {
            try pidFile.write()
        } catch {
            logger.warning("\(error); `waymark defer` cannot find this agent")
        }
        defer { pidFile.remove() }
        for await signal in signals.cancelOnGracefulShutdown() {
            locationService.setDeferral(enabled: signal == Self.onSignal)
        }
    }
}

import Logging
import ServiceLifecycle
import UnixSignals

/// The commands that talk to a running agent: `waymark defer off` sends SIGUSR1 (the open window ends with
/// reason `disabled` and its batch goes to the sinks), `waymark defer on` SIGUSR2 (deferral resumes with the
/// `[deferred]` thresholds; either lasts until the next reload or restart, which apply `[deferred] enabled`
/// again), and `waymark status` SIGWINCH (the status file is written at once).
///
/// The commands find the agent by `state_dir/waymark.pid`, which the service writes once its signal handlers
/// are in place (a signal before them would end the process) and removes when it stops.
struct ControlSignalService: Service {
    static let deferralOff = UnixSignal.sigusr1
    static let deferralOn = UnixSignal.sigusr2
    static let statusRequest = UnixSignal.sigwinch

    let locationService: LocationService
    let pidFile: PIDFile
    let logger: Logger

    func run() async {
        let signals = await UnixSignalsSequence(trapping: Self.deferralOff, Self.deferralOn, Self.statusRequest)
        do {
            try pidFile.write()
        } catch {
            logger.warning("\(error); `waymark defer` and `waymark status` cannot find this agent")
        }
        defer { pidFile.remove() }
        for await signal in signals.cancelOnGracefulShutdown() {
            if signal == Self.statusRequest {
                locationService.requestStatus()
            } else {
                locationService.setDeferral(enabled: signal == Self.deferralOn)
            }
        }
    }
}

import ServiceLifecycle
import UnixSignals

/// `waymark defer off` and `waymark defer on` on a running agent: SIGUSR1 ends deferral (the open window
/// ends with reason `disabled` and its batch goes to the sinks), SIGUSR2 resumes it with the `[deferred]`
/// thresholds. Either lasts until the next reload or restart, which apply `[deferred] enabled` again.
struct DeferralControlService: Service {
    static let offSignal = UnixSignal.sigusr1
    static let onSignal = UnixSignal.sigusr2

    let locationService: LocationService

    func run() async {
        for await signal in await UnixSignalsSequence(trapping: Self.offSignal, Self.onSignal)
            .cancelOnGracefulShutdown()
        {
            locationService.setDeferral(enabled: signal == Self.onSignal)
        }
    }
}

import WaymarkBluetooth
import WaymarkClocks
import WaymarkCore
import WaymarkSystem

/// Starts the live beacon source: a ``BlueZScanner`` on a thread of its own (`beacons`), its batches as a stream.
enum BeaconScanning {
    /// The scanner and its batches; ending the stream's iteration stops the scanner.
    static func start(
        _ settings: BeaconsSettings
    ) -> (scanner: BlueZScanner, batches: AsyncStream<[BeaconUpdate]>) {
        let scanner = BlueZScanner(configuration: settings.scanner) {
            (SystemClocks.monotonic(), SystemClocks.wall())
        }
        // A core a minute behind (a stuck disk) loses the oldest advertisements first, never a change of state:
        // those of a dropped batch go with the next one, so that the monitor's scanning clock stays right.
        let (batches, continuation) = AsyncStream.makeStream(
            of: [BeaconUpdate].self,
            bufferingPolicy: .bufferingNewest(240)
        )
        continuation.onTermination = { _ in scanner.stop() }
        DedicatedThread.start(name: "beacons") {
            var carried: [BeaconUpdate] = []
            scanner.run { batch in
                let now = batch.first?.monotonic ?? .zero
                let states = carried.map { update in
                    var update = update
                    update.monotonic = max(update.monotonic, now)
                    return update
                }
                if case .dropped(let lost) = continuation.yield(states + batch) {
                    carried = lost.filter(\.event.isState)
                } else {
                    carried = []
                }
            }
            continuation.finish()
        }
        return (scanner, batches)
    }
}

import WaymarkBluetooth
import WaymarkCore
import WaymarkGPSD

/// Starts the live beacon source: a ``BlueZScanner`` on a thread of its own (`beacons`), its batches as a stream.
enum BeaconScanning {
    /// The scanner and its batches; ending the stream's iteration stops the scanner.
    static func start(
        _ settings: BeaconsSettings
    ) -> (scanner: BlueZScanner, batches: AsyncStream<[BeaconUpdate]>) {
        let scanner = BlueZScanner(configuration: settings.scanner) {
            (SystemClocks.monotonic(), SystemClocks.wall())
        }
        // A core that falls behind loses the oldest advertisements first, never a state change for long: the
        // buffer holds a minute of batches at their pace.
        let (batches, continuation) = AsyncStream.makeStream(
            of: [BeaconUpdate].self,
            bufferingPolicy: .bufferingNewest(240)
        )
        continuation.onTermination = { _ in scanner.stop() }
        DedicatedThread.start(name: "beacons") {
            scanner.run { continuation.yield($0) }
            continuation.finish()
        }
        return (scanner, batches)
    }
}

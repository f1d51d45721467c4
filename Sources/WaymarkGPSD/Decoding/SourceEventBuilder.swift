import WaymarkCore

/// Turns decoded gpsd messages into ``SourceEvent``s: one location per epoch, device and connection
/// changes, and a counted rejection for everything not used. Shared by the live connection and replay,
/// so both map gpsd's output the same way.
///
/// Pure: `now` is passed in (monotonic; simulated in replay).
public struct SourceEventBuilder: Sendable {
    private var epochs: EpochAssembler
    /// The device to follow when gpsd reports several; nil follows whatever gpsd reports.
    private let device: String?

    public init(device: String? = nil, epochs: EpochAssembler.Configuration = .init()) {
        self.device = device
        self.epochs = EpochAssembler(configuration: epochs)
    }

    /// When ``flush(at:)`` has an epoch to emit, if one is pending.
    public var deadline: MonotonicInstant? { epochs.deadline }

    public mutating func handle(_ message: GPSDMessage, at now: MonotonicInstant) -> [SourceEvent] {
        switch message {
        case .fix(let report):
            return epochs.add(report, at: now).map(\.sourceEvent)
        case .attitude(let attitude):
            return flush(at: now) + [.attitude(attitude)]
        case .sky(let sky):
            return flush(at: now) + [.sky(sky)]
        case .version:
            return []
        case .deviceActive(let path):
            guard device == nil || device == path else { return [] }
            return [.deviceActive(path: path)]
        case .deviceGone(let path):
            guard device == nil || device == path else { return [] }
            return finish() + [.deviceGone(path: path)]
        case .devices(let paths):
            if let device { return paths.contains(device) ? [.deviceActive(path: device)] : [.deviceGone(path: nil)] }
            return paths.first.map { [.deviceActive(path: $0)] } ?? [.deviceGone(path: nil)]
        case .error(let message):
            return [.gpsdError(message: message)]
        case .ignored:
            return [.rejected(.ignoredClass)]
        case .echo:
            return []
        case .unparsable:
            return [.rejected(.unparsable)]
        }
    }

    /// Emits the pending epoch once its quiet period has passed.
    public mutating func flush(at now: MonotonicInstant) -> [SourceEvent] {
        epochs.flush(at: now).map(\.sourceEvent)
    }

    /// Emits whatever is pending: the input ended or the connection was lost.
    public mutating func finish() -> [SourceEvent] {
        epochs.finish().map(\.sourceEvent)
    }
}

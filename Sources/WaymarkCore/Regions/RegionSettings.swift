/// `[regions]`: how regions are monitored (Core Location's region monitoring, for a vehicle).
public struct RegionSettings: Hashable, Sendable {
    /// Metres a fix must be inside a region, or outside it, before the state changes (Core Location's
    /// boundary cushion); in between the state is kept.
    public var cushion: Double
    /// How long a change must hold, in GPS time between fixes, before it is reported (Core Location's 20 s).
    public var dwell: Duration
    /// Fixes less accurate than this (horizontal, metres, 95 %) change no state; fixes without an accuracy
    /// count as accurate enough.
    public var maxAccuracy: Double

    public init(cushion: Double = 20, dwell: Duration = .seconds(20), maxAccuracy: Double = 100) {
        self.cushion = cushion
        self.dwell = dwell
        self.maxAccuracy = maxAccuracy
    }
}

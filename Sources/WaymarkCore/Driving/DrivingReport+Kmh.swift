extension DrivingReport {
    /// `metresPerSecond` in whole km/h, for a person to read; nil when it is no such number (NaN, infinite, or
    /// beyond 10¹⁵): a corrupt speed read back from the spool is left out, never a crash of `Int(_:)`.
    public static func wholeKmh(_ metresPerSecond: Double) -> Int64? {
        let kmh = (metresPerSecond * 3.6).rounded()
        guard kmh.isFinite, abs(kmh) < 1e15 else { return nil }
        return Int64(kmh)
    }
}

/// What the heading pipeline needs of the field at a place: the declination, how much to trust it, and
/// whether a compass works there at all. ``DeclinationCache`` returns it.
public struct MagneticDeclination: Hashable, Sendable {
    /// D, degrees east of true north, -180 ... 180: true heading = magnetic heading + D.
    public var degrees: Double
    /// The standard deviation of ``degrees`` by the WMM2025 error model, degrees
    /// (``MagneticField/declinationUncertainty(horizontalIntensity:)``).
    public var uncertainty: Double
    /// H, nT, the strength of the horizontal field a compass aligns with.
    public var horizontalIntensity: Double
    /// Whether the time and height are within the model's validity (``MagneticField/isWithinValidity``).
    public var isWithinValidity: Bool

    public init(degrees: Double, horizontalIntensity: Double, isWithinValidity: Bool) {
        self.degrees = degrees
        self.uncertainty = MagneticField.declinationUncertainty(horizontalIntensity: horizontalIntensity)
        self.horizontalIntensity = horizontalIntensity
        self.isWithinValidity = isWithinValidity
    }

    /// The compass zone: in ``MagneticZone/blackout`` a magnetic heading has no valid accuracy.
    public var zone: MagneticZone { MagneticZone(horizontalIntensity: horizontalIntensity) }
}

extension MagneticField {
    /// The declination, its uncertainty, the zone and the validity of this field.
    public var magneticDeclination: MagneticDeclination {
        MagneticDeclination(
            degrees: declination,
            horizontalIntensity: horizontalIntensity,
            isWithinValidity: isWithinValidity
        )
    }
}

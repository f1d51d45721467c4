/// The geomagnetic field at one place and time, as a ``MagneticModel`` gives it: the seven elements of the
/// WMM and their yearly rates of change (secular variation).
///
/// Angles are in degrees, intensities in nanotesla. North, east and down refer to the geodetic frame
/// (WGS84) at the point; at a geographic pole, where north has no direction, they refer to the meridian
/// of the longitude asked for (see ``gridVariation``).
public struct MagneticField: Hashable, Sendable {
    /// D, degrees east of true north, -180 ... 180: true heading = magnetic heading + D.
    public var declination: Double
    /// I (dip), degrees below the horizontal, -90 ... 90: positive where the field points down.
    public var inclination: Double
    /// H, nT: the horizontal component's strength, what a compass needle aligns with.
    public var horizontalIntensity: Double
    /// F, nT: the strength of the whole vector.
    public var totalIntensity: Double
    /// X, nT: the northward component.
    public var north: Double
    /// Y, nT: the eastward component.
    public var east: Double
    /// Z, nT: the downward component.
    public var down: Double
    /// GV (grivation), degrees, -180 ... 180: the angle from grid north of a polar stereographic grid to
    /// magnetic north, D - λ at latitudes of 55° and more, D + λ at -55° and less (λ the longitude, -180 ...
    /// 180), as NOAA computes it; nil nearer the equator. Unlike D it is defined at the geographic poles.
    public var gridVariation: Double?
    /// How each element changes per year at this point and time.
    public var rates: Rates
    /// Whether the time is within the model's ``MagneticModel/validYears`` and the height within
    /// ``MagneticModel/validAltitudes``. Outside them the values are extrapolations of unknown accuracy.
    public var isWithinValidity: Bool

    /// The secular variation: the yearly change of each element of a ``MagneticField``.
    public struct Rates: Hashable, Sendable {
        /// Degrees per year.
        public var declination: Double
        /// Degrees per year.
        public var inclination: Double
        /// nT per year.
        public var horizontalIntensity: Double
        /// nT per year.
        public var totalIntensity: Double
        /// nT per year.
        public var north: Double
        /// nT per year.
        public var east: Double
        /// nT per year.
        public var down: Double
        /// Degrees per year, present when ``MagneticField/gridVariation`` is: the rate of D.
        public var gridVariation: Double?

        public init(
            declination: Double,
            inclination: Double,
            horizontalIntensity: Double,
            totalIntensity: Double,
            north: Double,
            east: Double,
            down: Double,
            gridVariation: Double?
        ) {
            self.declination = declination
            self.inclination = inclination
            self.horizontalIntensity = horizontalIntensity
            self.totalIntensity = totalIntensity
            self.north = north
            self.east = east
            self.down = down
            self.gridVariation = gridVariation
        }
    }

    public init(
        declination: Double,
        inclination: Double,
        horizontalIntensity: Double,
        totalIntensity: Double,
        north: Double,
        east: Double,
        down: Double,
        gridVariation: Double?,
        rates: Rates,
        isWithinValidity: Bool
    ) {
        self.declination = declination
        self.inclination = inclination
        self.horizontalIntensity = horizontalIntensity
        self.totalIntensity = totalIntensity
        self.north = north
        self.east = east
        self.down = down
        self.gridVariation = gridVariation
        self.rates = rates
        self.isWithinValidity = isWithinValidity
    }

    /// How far a compass can be trusted here, from ``horizontalIntensity``.
    public var zone: MagneticZone { MagneticZone(horizontalIntensity: horizontalIntensity) }

    /// The standard deviation of ``declination``, degrees, by the WMM2025 error model (see
    /// ``declinationUncertainty(horizontalIntensity:)``).
    public var declinationUncertainty: Double {
        Self.declinationUncertainty(horizontalIntensity: horizontalIntensity)
    }

    /// The WMM2025 error model's uncertainty of the declination, degrees (one standard deviation):
    /// √(0.26² + (5417 / H)²), H in nT. It covers the model's own error and the crustal and disturbance
    /// fields the model leaves out; it grows without bound towards the magnetic poles, where H goes to 0.
    public static func declinationUncertainty(horizontalIntensity: Double) -> Double {
        let crustal = 5_417 / horizontalIntensity
        return (0.26 * 0.26 + crustal * crustal).squareRoot()
    }
}

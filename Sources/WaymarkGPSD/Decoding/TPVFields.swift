import WaymarkCore

/// What Waymark maps of one TPV, as libgps leaves it in `gps_fix_t` and `set`: NaN where the message had no
/// value. Both decoders fill it (``GPSDData`` from libgps, ``BuiltinDecoder`` from the line), and
/// ``report`` is the one mapping they share.
struct TPVFields {
    /// libgps's `TIME_SET`.
    var hasTime = false
    var seconds = 0
    var nanoseconds = 0
    var mode = 0
    /// libgps's `LATLON_SET`.
    var hasPosition = false
    var latitude = Double.nan
    var longitude = Double.nan
    var altitudeHAE = Double.nan
    var altitudeMSL = Double.nan
    var eph = Double.nan
    var epx = Double.nan
    var epy = Double.nan
    var epv = Double.nan
    /// libgps's `TRACK_SET`.
    var hasTrack = false
    var track = Double.nan
    var epd = Double.nan
    var speed = Double.nan
    var eps = Double.nan

    /// GPS time before the GPS epoch (1980-01-06) is libgps's value for an unparsable `time`.
    private static let earliestValidTime = 315_964_800

    var report: FixReport {
        var report = FixReport()
        // libgps turns a fraction of many nines into tv_nsec == 1e9: such a time is no time.
        if hasTime, seconds >= Self.earliestValidTime, (0..<1_000_000_000).contains(nanoseconds) {
            report.time = Timestamp(seconds: Int64(seconds), nanoseconds: Int32(nanoseconds))
        }
        report.mode = FixMode(rawValue: mode) ?? .notSeen
        if hasPosition {
            report.latitude = finite(latitude)
            report.longitude = finite(longitude)
        }
        report.altitudeHAE = finite(altitudeHAE)
        report.altitudeMSL = finite(altitudeMSL)
        report.horizontalError = nonNegative(eph)
        report.longitudeError = nonNegative(epx)
        report.latitudeError = nonNegative(epy)
        report.verticalError = nonNegative(epv)
        // Speed and course only when the receiver measured a track: GGA-triggered TPVs carry a speed
        // gpsd computed from position changes, which is wrong by tens of m/s for a receiver standing still.
        if hasTrack, let track = finite(track), (0...360).contains(track) {
            report.course = track == 360 ? 0 : track
            report.courseError = nonNegative(epd)
            report.speed = nonNegative(speed)
            report.speedError = nonNegative(eps)
        }
        return report
    }
}

/// What Waymark maps of one SKY, as libgps leaves it: the satellite counts and the dilutions of precision.
struct SkyFields {
    /// libgps's `SATELLITE_SET`.
    var hasSatellites = false
    var used = 0
    var visible = 0
    var hdop = Double.nan
    var vdop = Double.nan
    var pdop = Double.nan

    var report: SkyReport {
        SkyReport(
            satellitesUsed: hasSatellites ? used : nil,
            satellitesVisible: hasSatellites ? visible : nil,
            hdop: finite(hdop),
            vdop: finite(vdop),
            pdop: finite(pdop)
        )
    }
}

func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

private func nonNegative(_ value: Double) -> Double? { value.isFinite && value >= 0 ? value : nil }

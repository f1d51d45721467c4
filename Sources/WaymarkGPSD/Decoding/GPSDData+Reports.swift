import CLibGPS
import WaymarkCore

extension GPSDData {
    /// GPS time before the GPS epoch (1980-01-06) is libgps's value for an unparsable `time`.
    private static let earliestValidTime: Int = 315_964_800

    /// The TPV just decoded. A TPV replaces `set`, so the flags say exactly what this message carried.
    func fixReport() -> FixReport {
        let fix = pointer.pointee.fix
        var report = FixReport()
        // libgps turns a fraction of many nines into tv_nsec == 1e9: such a time is no time.
        if waymark_isset(pointer, waymark_mask_time()), fix.time.tv_sec >= Self.earliestValidTime,
            (0..<1_000_000_000).contains(fix.time.tv_nsec)
        {
            report.time = Timestamp(seconds: Int64(fix.time.tv_sec), nanoseconds: Int32(fix.time.tv_nsec))
        }
        report.mode = FixMode(rawValue: Int(fix.mode)) ?? .notSeen
        if waymark_isset(pointer, waymark_mask_latlon()) {
            report.latitude = finite(fix.latitude)
            report.longitude = finite(fix.longitude)
        }
        report.altitudeHAE = finite(fix.altHAE)
        report.altitudeMSL = finite(fix.altMSL)
        report.horizontalError = nonNegative(fix.eph)
        report.longitudeError = nonNegative(fix.epx)
        report.latitudeError = nonNegative(fix.epy)
        report.verticalError = nonNegative(fix.epv)
        // Speed and course only when the receiver measured a track: GGA-triggered TPVs carry a speed
        // gpsd computed from position changes, which is wrong by tens of m/s for a receiver standing still.
        if waymark_isset(pointer, waymark_mask_track()), let track = finite(fix.track), (0...360).contains(track) {
            report.course = track == 360 ? 0 : track
            report.courseError = nonNegative(fix.epd)
            report.speed = nonNegative(fix.speed)
            report.speedError = nonNegative(fix.eps)
        }
        return report
    }

    func attitude() -> Attitude {
        Attitude(
            heading: finite(waymark_attitude_heading(pointer)),
            magneticHeading: finite(waymark_attitude_magnetic_heading(pointer)),
            pitch: finite(waymark_attitude_pitch(pointer)),
            roll: finite(waymark_attitude_roll(pointer))
        )
    }

    func skyReport() -> SkyReport {
        let dop = pointer.pointee.dop
        var used: Int?
        if waymark_isset(pointer, waymark_mask_satellite()) { used = Int(pointer.pointee.satellites_used) }
        return SkyReport(
            satellitesUsed: used,
            satellitesVisible: used == nil ? nil : Int(pointer.pointee.satellites_visible),
            hdop: finite(dop.hdop),
            vdop: finite(dop.vdop),
            pdop: finite(dop.pdop)
        )
    }

    func devicePaths() -> [String] {
        let devices = pointer.pointee.devices
        let count = max(0, min(Int(devices.ndevices), Int(MAXUSERDEVS)))
        return withUnsafeBytes(of: devices.list) { raw in
            let list = raw.bindMemory(to: devconfig_t.self)
            return (0..<count).map { cString(list[$0].path) }
        }
    }
}

private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

private func nonNegative(_ value: Double) -> Double? { value.isFinite && value >= 0 ? value : nil }

import CLibGPS
import WaymarkCore

extension GPSDData {
    /// The TPV just decoded. A TPV replaces `set`, so the flags say exactly what this message carried.
    func fixReport() -> FixReport { tpvFields().report }

    func tpvFields() -> TPVFields {
        let fix = pointer.pointee.fix
        var fields = TPVFields()
        fields.hasTime = waymark_isset(pointer, waymark_mask_time())
        fields.seconds = Int(fix.time.tv_sec)
        fields.nanoseconds = Int(fix.time.tv_nsec)
        fields.mode = Int(fix.mode)
        fields.hasPosition = waymark_isset(pointer, waymark_mask_latlon())
        fields.latitude = fix.latitude
        fields.longitude = fix.longitude
        fields.altitudeHAE = fix.altHAE
        fields.altitudeMSL = fix.altMSL
        fields.eph = fix.eph
        fields.epx = fix.epx
        fields.epy = fix.epy
        fields.epv = fix.epv
        fields.hasTrack = waymark_isset(pointer, waymark_mask_track())
        fields.track = fix.track
        fields.epd = fix.epd
        fields.speed = fix.speed
        fields.eps = fix.eps
        return fields
    }

    func attitude() -> Attitude {
        Attitude(
            heading: finite(waymark_attitude_heading(pointer)),
            magneticHeading: finite(waymark_attitude_magnetic_heading(pointer)),
            pitch: finite(waymark_attitude_pitch(pointer)),
            roll: finite(waymark_attitude_roll(pointer))
        )
    }

    func skyReport() -> SkyReport { skyFields().report }

    func skyFields() -> SkyFields {
        let dop = pointer.pointee.dop
        return SkyFields(
            hasSatellites: waymark_isset(pointer, waymark_mask_satellite()),
            used: Int(pointer.pointee.satellites_used),
            visible: Int(pointer.pointee.satellites_visible),
            hdop: dop.hdop,
            vdop: dop.vdop,
            pdop: dop.pdop
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

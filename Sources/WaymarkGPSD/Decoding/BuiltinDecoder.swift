import CLibGPS

/// Decodes TPV and SKY lines, nearly all the JSON of a capture, without libgps, to exactly what
/// `gps_unpack` leaves for the mapping; nil for any other line, which then goes to `gps_unpack`.
///
/// It takes only the plain shape gpsd writes: one object with `"class"` first, no white space, no escapes,
/// numbers without exponents, times as `YYYY-MM-DDTHH:MM:SS[.F]Z`, and only keys whose meaning to libgps
/// is known here. Within that shape it computes what libgps 3.22 computes (see ``PlainJSONScanner``), and
/// `BuiltinDecoderTests` holds it to `gps_unpack` on every line of the fixture captures and on random lines.
/// It is about four times as fast as `gps_unpack`, which spends most of its time finding each key in a
/// table of 60 by `strcmp`.
enum BuiltinDecoder {
    /// What a line decodes to, as libgps would leave it in `gps_data_t`.
    enum Fields {
        case tpv(TPVFields)
        case sky(SkyFields)

        var message: GPSDMessage {
            switch self {
            case .tpv(let fields): .fix(fields.report)
            case .sky(let fields): .sky(fields.report)
            }
        }
    }

    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> GPSDMessage? { fields(of: line)?.message }

    /// The fields of a TPV or SKY line; nil for any other line and for one longer than the buffer a live
    /// connection reads into, which replay through `gps_unpack` refuses as well.
    static func fields(of line: UnsafeBufferPointer<UInt8>) -> Fields? {
        guard line.count <= Int(WAYMARK_MESSAGE_CAPACITY) else { return nil }
        var scanner = PlainJSONScanner(line)
        if scanner.skip(tpvPrefix) {
            return tpv(&scanner).map { .tpv($0) }
        }
        if scanner.skip(skyPrefix) {
            return sky(&scanner).map { .sky($0) }
        }
        return nil
    }

    /// The members of a TPV after `"class":"TPV"`, with libgps's defaults (NaN, `MODE_NOT_SEEN`, no time)
    /// for those absent and its flags derived as `libgps_json_unpack` derives them.
    private static func tpv(_ scanner: inout PlainJSONScanner) -> TPVFields? {
        var fields = TPVFields()
        // `{"class":"TPV"}` has no member after the class; any other TPV continues with a comma.
        let read =
            !scanner.skip(UInt8(ascii: ","))
            || scanner.members(Self.tpvMembers) { member, scanner in
                switch member {
                case .latitude: return scanner.number(into: &fields.latitude)
                case .longitude: return scanner.number(into: &fields.longitude)
                case .altitudeHAE: return scanner.number(into: &fields.altitudeHAE)
                case .altitudeMSL: return scanner.number(into: &fields.altitudeMSL)
                case .eph: return scanner.number(into: &fields.eph)
                case .epx: return scanner.number(into: &fields.epx)
                case .epy: return scanner.number(into: &fields.epy)
                case .epv: return scanner.number(into: &fields.epv)
                case .track: return scanner.number(into: &fields.track)
                case .epd: return scanner.number(into: &fields.epd)
                case .speed: return scanner.number(into: &fields.speed)
                case .eps: return scanner.number(into: &fields.eps)
                case .mode: return scanner.integer(in: 0...9, into: &fields.mode)
                case .time:
                    guard let time = scanner.time() else { return false }
                    (fields.seconds, fields.nanoseconds) = time
                    return true
                case .device: return scanner.string(maximumLength: Self.maximumPathLength) != nil
                case .otherInteger: return scanner.integer(in: 0...65_535) != nil
                case .otherNumber: return scanner.number() != nil
                }
            }
        guard read, scanner.skip(UInt8(ascii: "}")), scanner.isAtEnd else { return nil }
        fields.hasTime = fields.seconds != 0
        fields.hasPosition = fields.longitude.isFinite
        fields.hasTrack = fields.track.isFinite
        return fields
    }

    /// The members of a SKY after `"class":"SKY"`. libgps 3.22 sets `SATELLITE_SET` for every SKY it parses
    /// and counts the satellites itself: visible those with a PRN above 0, used those marked used. A second
    /// `satellites` array overwrites the first one's entries only as far as it goes: left to libgps.
    private static func sky(_ scanner: inout PlainJSONScanner) -> SkyFields? {
        var fields = SkyFields(hasSatellites: true)
        var sawSatellites = false
        // As for a TPV: nothing or `,` after the class.
        let read =
            !scanner.skip(UInt8(ascii: ","))
            || scanner.members(Self.skyMembers) { member, scanner in
                switch member {
                case .hdop: return scanner.number(into: &fields.hdop)
                case .vdop: return scanner.number(into: &fields.vdop)
                case .pdop: return scanner.number(into: &fields.pdop)
                case .satellites:
                    guard !sawSatellites else { return false }
                    sawSatellites = true
                    return satellites(&scanner, into: &fields)
                case .device: return scanner.string(maximumLength: Self.maximumPathLength) != nil
                case .time: return scanner.time() != nil
                case .otherInteger: return scanner.integer(in: 0...65_535) != nil
                case .otherNumber: return scanner.number() != nil
                }
            }
        guard read, scanner.skip(UInt8(ascii: "}")), scanner.isAtEnd else { return nil }
        return fields
    }

    /// `[{…},…]`: at most libgps's `MAXCHANNELS` satellites, counted into `fields`.
    private static func satellites(_ scanner: inout PlainJSONScanner, into fields: inout SkyFields) -> Bool {
        fields.used = 0
        fields.visible = 0
        guard scanner.skip(UInt8(ascii: "[")) else { return false }
        if scanner.skip(UInt8(ascii: "]")) { return true }
        var count = 0
        repeat {
            count += 1
            var prn = 0
            var used = false
            guard count <= Self.maximumSatellites, scanner.skip(UInt8(ascii: "{")) else { return false }
            let read = scanner.members(Self.satelliteMembers) { member, scanner in
                switch member {
                case .prn: return scanner.integer(in: 0...32_767, into: &prn)
                case .used: return scanner.boolean(into: &used)
                case .byte: return scanner.integer(in: 0...255) != nil
                case .signedByte: return scanner.integer(in: -128...127) != nil
                case .number: return scanner.number() != nil
                }
            }
            guard read, scanner.skip(UInt8(ascii: "}")) else { return false }
            if prn > 0 { fields.visible += 1 }
            if used { fields.used += 1 }
        } while scanner.skip(UInt8(ascii: ","))
        return scanner.skip(UInt8(ascii: "]"))
    }

    private static let tpvPrefix = Array(#"{"class":"TPV""#.utf8)
    private static let skyPrefix = Array(#"{"class":"SKY""#.utf8)
    /// libgps copies `device` into a buffer of `GPS_PATH_MAX` (128) bytes; longer paths are its business.
    private static let maximumPathLength = 100
    /// libgps's `MAXCHANNELS` in 3.22.
    private static let maximumSatellites = 140

    private enum TPVMember {
        case latitude, longitude, altitudeHAE, altitudeMSL, eph, epx, epy, epv, track, epd, speed, eps, mode, time
        case device
        /// Members libgps 3.22 reads into fields Waymark does not map.
        case otherInteger, otherNumber
    }

    /// The TPV members this decoder takes, in gpsd's order; a line with any other goes to `gps_unpack`.
    private static let tpvMembers: [(key: PackedKey, member: TPVMember)] = [
        (PackedKey("device"), .device), (PackedKey("mode"), .mode), (PackedKey("time"), .time),
        (PackedKey("ept"), .otherNumber), (PackedKey("lat"), .latitude), (PackedKey("lon"), .longitude),
        (PackedKey("altHAE"), .altitudeHAE), (PackedKey("altMSL"), .altitudeMSL), (PackedKey("alt"), .otherNumber),
        (PackedKey("epx"), .epx), (PackedKey("epy"), .epy), (PackedKey("epv"), .epv), (PackedKey("track"), .track),
        (PackedKey("magtrack"), .otherNumber), (PackedKey("magvar"), .otherNumber), (PackedKey("speed"), .speed),
        (PackedKey("climb"), .otherNumber), (PackedKey("epd"), .epd), (PackedKey("eps"), .eps),
        (PackedKey("epc"), .otherNumber), (PackedKey("eph"), .eph), (PackedKey("sep"), .otherNumber),
        (PackedKey("geoidSep"), .otherNumber), (PackedKey("status"), .otherInteger), (PackedKey("depth"), .otherNumber),
        (PackedKey("dgpsAge"), .otherNumber), (PackedKey("dgpsSta"), .otherInteger),
        (PackedKey("wanglem"), .otherNumber), (PackedKey("wangler"), .otherNumber),
        (PackedKey("wanglet"), .otherNumber), (PackedKey("wspeedr"), .otherNumber),
        (PackedKey("wspeedt"), .otherNumber),
    ]

    private enum SkyMember {
        case hdop, vdop, pdop, satellites, device, time, otherInteger, otherNumber
    }

    private static let skyMembers: [(key: PackedKey, member: SkyMember)] = [
        (PackedKey("device"), .device), (PackedKey("time"), .time), (PackedKey("xdop"), .otherNumber),
        (PackedKey("ydop"), .otherNumber), (PackedKey("vdop"), .vdop), (PackedKey("tdop"), .otherNumber),
        (PackedKey("hdop"), .hdop), (PackedKey("gdop"), .otherNumber), (PackedKey("pdop"), .pdop),
        (PackedKey("nSat"), .otherInteger), (PackedKey("uSat"), .otherInteger), (PackedKey("satellites"), .satellites),
    ]

    private enum SatelliteMember {
        case prn, used
        /// libgps's `t_ubyte`, `t_byte` and `t_real` members, not mapped.
        case byte, signedByte, number
    }

    private static let satelliteMembers: [(key: PackedKey, member: SatelliteMember)] = [
        (PackedKey("PRN"), .prn), (PackedKey("el"), .number), (PackedKey("az"), .number), (PackedKey("ss"), .number),
        (PackedKey("used"), .used), (PackedKey("gnssid"), .byte), (PackedKey("svid"), .byte),
        (PackedKey("sigid"), .byte), (PackedKey("freqid"), .signedByte), (PackedKey("health"), .byte),
    ]
}

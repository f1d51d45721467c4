import WaymarkTestSupport

@testable import WaymarkGPSD

/// Random TPV and SKY lines in the plain shape gpsd writes, with numbers and times of every length the
/// builtin decoder takes.
enum RandomReport {
    static func tpv(using random: inout SplitMix64) -> (line: String, numbers: [String]) {
        var members = [#""class":"TPV""#]
        var numbers: [String] = []
        if Bool.random(using: &random) { members.append(#""device":"\#(device(using: &random))""#) }
        if Int.random(in: 0..<10, using: &random) > 0 {
            members.append(#""mode":\#(Int.random(in: 0...9, using: &random))"#)
        }
        if Int.random(in: 0..<10, using: &random) > 0 { members.append(#""time":"\#(time(using: &random))""#) }
        let keys = [
            "ept", "lat", "lon", "altHAE", "altMSL", "alt", "epx", "epy", "epv", "track", "magtrack", "magvar",
            "speed", "climb", "epd", "eps", "epc", "eph", "sep", "geoidSep", "depth", "dgpsAge", "wanglem",
            "wangler", "wanglet", "wspeedr", "wspeedt",
        ]
        var numbered = keys.filter { _ in Int.random(in: 0..<10, using: &random) < 6 }
        if Int.random(in: 0..<10, using: &random) == 0 { numbered.shuffle(using: &random) }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            if let repeated = numbered.randomElement(using: &random) { numbered.append(repeated) }
        }
        for key in numbered {
            let text = number(using: &random)
            numbers.append(text)
            members.append(#""\#(key)":\#(text)"#)
        }
        for key in ["status", "dgpsSta"] where Int.random(in: 0..<5, using: &random) == 0 {
            members.append(#""\#(key)":\#(Int.random(in: 0...1023, using: &random))"#)
        }
        return ("{" + members.joined(separator: ",") + "}", numbers)
    }

    /// A SKY of 0 to 30 satellites, or in one line of 20 up to 100 (about 9 KB: under the 10,240 bytes a line
    /// may have), with or without each optional member.
    static func sky(using random: inout SplitMix64) -> String {
        var members = [#""class":"SKY""#]
        if Bool.random(using: &random) { members.append(#""device":"\#(device(using: &random))""#) }
        if Int.random(in: 0..<10, using: &random) == 0 { members.append(#""time":"\#(time(using: &random))""#) }
        for key in ["xdop", "ydop", "vdop", "tdop", "hdop", "gdop", "pdop"]
        where Int.random(in: 0..<10, using: &random) < 8 {
            members.append(#""\#(key)":\#(number(using: &random))"#)
        }
        let count =
            Int.random(in: 0..<20, using: &random) == 0
            ? Int.random(in: 31...100, using: &random) : Int.random(in: 0...30, using: &random)
        if Int.random(in: 0..<10, using: &random) > 0 { members.append(#""nSat":\#(count)"#) }
        if Bool.random(using: &random) { members.append(#""uSat":\#(Int.random(in: 0...count, using: &random))"#) }
        if Int.random(in: 0..<10, using: &random) > 0 {
            let satellites = (0..<count).map { _ in satellite(using: &random) }
            members.append(#""satellites":[\#(satellites.joined(separator: ","))]"#)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func satellite(using random: inout SplitMix64) -> String {
        var fields: [String] = []
        if Int.random(in: 0..<20, using: &random) > 0 {
            fields.append(#""PRN":\#(Int.random(in: 0...400, using: &random))"#)
        }
        if Int.random(in: 0..<10, using: &random) > 0 {
            fields.append(
                #""el":\#(short(using: &random)),"az":\#(short(using: &random)),"ss":\#(short(using: &random))"#
            )
        }
        if Int.random(in: 0..<20, using: &random) > 0 {
            fields.append(#""used":\#(Bool.random(using: &random))"#)
        }
        for key in ["gnssid", "svid", "sigid", "health"] where Int.random(in: 0..<4, using: &random) > 0 {
            fields.append(#""\#(key)":\#(Int.random(in: 0...255, using: &random))"#)
        }
        if Bool.random(using: &random) {
            fields.append(#""freqid":\#(Int.random(in: -128...127, using: &random))"#)
        }
        if fields.isEmpty { fields.append(#""PRN":1"#) }
        fields.shuffle(using: &random)
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A number of at most 4 digits, as gpsd writes elevations, azimuths and signal strengths.
    private static func short(using random: inout SplitMix64) -> String {
        let value = Double(Int.random(in: -900...3600, using: &random)) / 10
        return value == value.rounded() ? "\(Int(value)).0" : "\(value)"
    }

    /// A device path gpsd could name: a serial port, a network source, or a long one with any bytes but
    /// quotes, backslashes and control characters.
    private static func device(using random: inout SplitMix64) -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return "/dev/ttyUSB\(Int.random(in: 0...9, using: &random))"
        case 1: return "tcp://127.0.0.1:\(Int.random(in: 1024...65535, using: &random))"
        case 2: return "/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00"
        default: return "/tmp/gps-é-\(Int.random(in: 0...999, using: &random))"
        }
    }

    /// `-?D+(.D+)?` with 1 to 18 digits; the fraction may start with zeros, the whole part never does.
    static func number(using random: inout SplitMix64) -> String {
        let total =
            Int.random(in: 0..<4, using: &random) == 0
            ? Int.random(in: 15...18, using: &random)
            : Int.random(in: 1...12, using: &random)
        // A quarter are below 1: "0." and a fraction that may start with zeros.
        let wholeDigits = Int.random(in: 0..<4, using: &random) == 0 ? 0 : Int.random(in: 1...total, using: &random)
        var text = Bool.random(using: &random) ? "-" : ""
        text += wholeDigits == 0 ? "0" : digits(wholeDigits, first: 1...9, using: &random)
        let fractionDigits = total - max(wholeDigits, 1)
        if fractionDigits > 0 { text += "." + digits(fractionDigits, first: 0...9, using: &random) }
        return text
    }

    /// `YYYY-MM-DDTHH:MM:SS[.F]Z` from 1970 to 2099, with days up to 31 in every month and 0 to 15
    /// fraction digits, often nines.
    static func time(using random: inout SplitMix64) -> String {
        func two(_ range: ClosedRange<Int>) -> String {
            let value = Int.random(in: range, using: &random)
            return value < 10 ? "0\(value)" : "\(value)"
        }
        var text = "\(Int.random(in: 1970...2099, using: &random))-\(two(1...12))-\(two(1...31))"
        text += "T\(two(0...23)):\(two(0...59)):\(two(0...59))"
        let fraction = Int.random(in: 0...15, using: &random)
        if fraction > 0 {
            text += "."
            text +=
                Bool.random(using: &random)
                ? String(repeating: "9", count: fraction) : digits(fraction, first: 0...9, using: &random)
        }
        return text + "Z"
    }

    /// The value libgps gives the number `text` (the builtin decoder's, which the tests hold to it).
    static func libgpsValue(of text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var scanner = PlainJSONScanner(bytes)
            return scanner.number()
        }
    }

    private static func digits(_ count: Int, first: ClosedRange<Int>, using random: inout SplitMix64) -> String {
        var text = String(Int.random(in: first, using: &random))
        for _ in 1..<max(count, 1) { text += String(Int.random(in: 0...9, using: &random)) }
        return String(text.prefix(count))
    }
}

import WaymarkCore
import WaymarkFormats
import WaymarkGPX

/// The track point of a `location` line as ``EventEncoder`` writes it, read straight from the line's bytes.
///
/// A trip's GPX reads every location of the trip back from the spool; decoding each through ``EventLine`` (a
/// `String` per key and value) cost 29,000 instructions a line, most of the trip's GPX. This reads the encoder's
/// own shape only, without allocating: one object of the members a location line has (``Member``), each at most
/// once, no whitespace, strings of printable ASCII without escapes, numbers as RFC 8259 writes them. Any other
/// line, well-formed or not, gives nil, and the caller decodes it with ``EventLine``, which reads all of JSON and
/// says what is wrong: so a point read here is always the one ``TrackPoint/init(_:)`` makes of the line's
/// ``EventLine``, and a line read here is one that ``EventLine`` decodes.
enum LocationLine {
    /// The members of a `location` line, in the order ``EventEncoder`` writes them.
    enum Member: Int, CaseIterable {
        case type, seq, time, recv, device, lat, lon, altHAE, altMSL, hAcc, vAcc, speed, speedAcc, course, courseAcc
        case mode

        var key: String {
            switch self {
            case .type: "type"
            case .seq: "seq"
            case .time: "time"
            case .recv: "recv"
            case .device: "device"
            case .lat: "lat"
            case .lon: "lon"
            case .altHAE: "alt_hae"
            case .altMSL: "alt_msl"
            case .hAcc: "h_acc"
            case .vAcc: "v_acc"
            case .speed: "speed"
            case .speedAcc: "speed_acc"
            case .course: "course"
            case .courseAcc: "course_acc"
            case .mode: "mode"
            }
        }

        /// What the member holds, as ``EventEncoder`` writes it.
        var holdsString: Bool { self == .type || self == .time || self == .recv || self == .device }
    }

    /// The point of `line` (without its line break) when it is a `location` line in ``EventEncoder``'s shape with
    /// `lat` and `lon`; nil for any other line.
    static func trackPoint(_ line: [UInt8]) -> TrackPoint? {
        guard line.count <= JSONLimits().maximumBytes else { return nil }
        return line.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            guard reader.skip(UInt8(ascii: "{")) else { return nil }
            var seen = 0
            var next = 0
            var time: Timestamp?
            var latitude: Double?
            var longitude: Double?
            var elevation: Double?
            var speed: Double?
            var course: Double?
            repeat {
                guard let member = reader.member(from: &next), seen & (1 << member.rawValue) == 0 else { return nil }
                seen |= 1 << member.rawValue
                if member.holdsString {
                    guard let value = reader.string() else { return nil }
                    switch member {
                    case .type: guard value.elementsEqual(Self.location) else { return nil }
                    case .time:
                        guard let parsed = Timestamp(iso8601: line[value.startIndex..<value.endIndex]) else {
                            return nil
                        }
                        time = parsed
                    default: break
                    }
                } else if member == .seq {
                    guard reader.wholeNumber() else { return nil }
                } else {
                    guard let value = reader.number() else { return nil }
                    switch member {
                    case .lat: latitude = value
                    case .lon: longitude = value
                    case .altMSL: elevation = value
                    case .speed: speed = value
                    case .course: course = value
                    default: break
                    }
                }
            } while reader.skip(UInt8(ascii: ","))
            guard reader.skip(UInt8(ascii: "}")), reader.isAtEnd, seen & (1 << Member.seq.rawValue) != 0,
                seen & (1 << Member.type.rawValue) != 0, let time, let latitude, let longitude
            else { return nil }
            return TrackPoint(
                time: time,
                latitude: latitude,
                longitude: longitude,
                elevation: elevation,
                speed: speed,
                course: course
            )
        }
    }

    private static let location = Array("location".utf8)

    /// The key of one of ``Member``'s cases as it stands in a line, `"alt_msl":` (6 to 13 bytes), as two
    /// little-endian words and the masks of the bytes each holds: compared with a line a word at a time.
    private struct Key {
        var first: UInt64
        var firstMask: UInt64
        var rest: UInt64
        var restMask: UInt64
        var length: Int

        init(_ member: Member) {
            let bytes = Array("\"\(member.key)\":".utf8)
            precondition((6...16).contains(bytes.count), "a key of \(bytes.count) bytes")
            first = 0
            rest = 0
            for (offset, byte) in bytes.enumerated() {
                if offset < 8 {
                    first |= UInt64(byte) << (8 * offset)
                } else {
                    rest |= UInt64(byte) << (8 * (offset - 8))
                }
            }
            firstMask = bytes.count >= 8 ? UInt64.max : UInt64.max >> (8 * (8 - bytes.count))
            restMask = bytes.count <= 8 ? 0 : UInt64.max >> (8 * (16 - bytes.count))
            length = bytes.count
        }
    }

    private static let keys = Member.allCases.map(Key.init)

    /// A cursor over the line's bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        /// Steps over `byte` if it is next.
        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The bytes of the string that is next, between its quotes, when they are printable ASCII without an
        /// escape.
        mutating func string() -> Slice<UnsafeBufferPointer<UInt8>>? {
            guard skip(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return bytes[start..<(index - 1)]
                }
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        /// The member whose key (`"lat":`, quotes and colon) is next, looked for from `next` on (the member after
        /// the last one found, as the encoder writes them in order), then from the first; `next` moves past it.
        /// Nil for a key of any other member, or one written otherwise (an escape, whitespace). A key's bytes are
        /// never 0, so the zeros that stand for bytes beyond the line match none.
        mutating func member(from next: inout Int) -> Member? {
            let keys = LocationLine.keys
            let first = word(at: index)
            let rest = word(at: index &+ 8)
            var candidate = next
            for _ in 0..<keys.count {
                if candidate == keys.count { candidate = 0 }
                let key = keys[candidate]
                if first & key.firstMask == key.first, rest & key.restMask == key.rest,
                    index &+ key.length <= bytes.count
                {
                    index &+= key.length
                    next = candidate &+ 1
                    return Member(rawValue: candidate)
                }
                candidate &+= 1
            }
            return nil
        }

        /// The 8 bytes from `offset` on as a little-endian word, zeros for those beyond the line.
        private func word(at offset: Int) -> UInt64 {
            guard let base = bytes.baseAddress, offset < bytes.count else { return 0 }
            if offset &+ 8 <= bytes.count {
                return UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            }
            var word: UInt64 = 0
            for shift in 0..<(bytes.count &- offset) { word |= UInt64(bytes[offset &+ shift]) << (8 * shift) }
            return word
        }

        /// The number that is next, as ``JSONReader`` reads it.
        mutating func number() -> Double? {
            guard let (value, end) = JSONReader.number(in: bytes, at: index) else { return nil }
            index = end
            return value
        }

        /// Steps over a whole number of at most 19 digits, without leading zeros (any `UInt64` holds it).
        mutating func wholeNumber() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            let digits = index - start
            return digits > 0 && digits <= 19 && (digits == 1 || bytes[start] != UInt8(ascii: "0"))
        }
    }
}

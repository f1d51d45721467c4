extension ZoneInfo {
    /// Reads a TZif file of version 1, 2, 3 or 4 (RFC 8536, RFC 9636): the 64-bit data block and the footer when
    /// the file has them (version 2 on), else the 32-bit block.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - name: the zone's name, `Europe/Berlin`, for the errors.
    /// - Throws: ``ZoneInfoError`` naming the zone and what is wrong: data that ends before its header's
    ///   counts, a magic other than `TZif`, another version, counts, transitions, types or designations that
    ///   RFC 8536 does not allow, or a footer that is not a TZ string.
    public init(tzif bytes: [UInt8], name: String) throws(ZoneInfoError) {
        var reader = TZifReader(bytes: bytes, zone: name)
        let first = try reader.header()
        let block: TZifReader.Block
        var footer: POSIXTimeZone?
        if first.version == 1 {
            block = try reader.block(first, timeSize: 4)
        } else {
            try reader.skip(first.blockSize(timeSize: 4), "the version 1 data block")
            let second = try reader.header()
            block = try reader.block(second, timeSize: 8)
            let text = try reader.footer()
            if !text.isEmpty {
                do {
                    footer = try POSIXTimeZone(text)
                } catch {
                    throw ZoneInfoError(.invalidFooter, zone: name, "the footer TZ string: \(error.message)")
                }
            }
        }
        self.init(
            name: name,
            transitions: block.transitions,
            transitionTypes: block.transitionTypes,
            types: block.types,
            footer: footer
        )
    }
}

/// A cursor over the bytes of a TZif file, reading big-endian fields and checking them as it goes.
private struct TZifReader {
    /// A header's version and counts.
    struct Header {
        var version: Int
        var utIndicators: Int
        var standardIndicators: Int
        var leapSeconds: Int
        var transitions: Int
        var types: Int
        var characters: Int

        func blockSize(timeSize: Int) -> Int {
            transitions * (timeSize + 1) + types * 6 + characters + leapSeconds * (timeSize + 4) + standardIndicators
                + utIndicators
        }
    }

    /// What ``ZoneInfo`` keeps of a data block.
    struct Block {
        var transitions: [Int64]
        var transitionTypes: [Int]
        var types: [LocalTimeType]
    }

    private let bytes: [UInt8]
    private let zone: String
    private var index = 0

    init(bytes: [UInt8], zone: String) {
        self.bytes = bytes
        self.zone = zone
    }

    private func failure(_ code: ZoneInfoError.Code, _ message: String) -> ZoneInfoError {
        ZoneInfoError(code, zone: zone, message)
    }

    mutating func skip(_ count: Int, _ what: String) throws(ZoneInfoError) {
        try need(count, what)
        index += count
    }

    private func need(_ count: Int, _ what: String) throws(ZoneInfoError) {
        guard count <= bytes.count - index else {
            throw failure(
                .truncated,
                "truncated: \(what) needs \(count) bytes at byte \(index), \(bytes.count - index) remain"
            )
        }
    }

    private mutating func integer(size: Int) -> Int64 {
        var value: UInt64 = 0
        for offset in 0..<size { value = value << 8 | UInt64(bytes[index + offset]) }
        index += size
        // Sign-extend a 32-bit field.
        return size == 4 ? Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) : Int64(bitPattern: value)
    }

    mutating func header() throws(ZoneInfoError) -> Header {
        try need(44, "a header")
        guard bytes[index..<index + 4].elementsEqual("TZif".utf8) else {
            throw failure(.notTZif, "not a TZif file: it does not start with \"TZif\" at byte \(index)")
        }
        let versions: [UInt8: Int] = [0: 1, 0x32: 2, 0x33: 3, 0x34: 4]
        guard let version = versions[bytes[index + 4]] else {
            throw failure(.unsupportedVersion, "TZif version byte \(bytes[index + 4]) is not 1, 2, 3 or 4")
        }
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(UInt32(truncatingIfNeeded: integer(size: 4)))) }
        let header = Header(
            version: version,
            utIndicators: counts[0],
            standardIndicators: counts[1],
            leapSeconds: counts[2],
            transitions: counts[3],
            types: counts[4],
            characters: counts[5]
        )
        guard header.types > 0 && header.types <= 256 && header.characters > 0 else {
            throw failure(
                .invalidData,
                "\(header.types) local time types and \(header.characters) designation bytes: 1 ... 256 and 1 or more"
            )
        }
        guard [0, header.types].contains(header.utIndicators), [0, header.types].contains(header.standardIndicators)
        else { throw failure(.invalidData, "the UT or standard indicators are neither none nor one per type") }
        return header
    }

    mutating func block(_ header: Header, timeSize: Int) throws(ZoneInfoError) -> Block {
        try need(header.blockSize(timeSize: timeSize), "the data block of version \(header.version)")
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.transitions)
        for number in 0..<header.transitions {
            let time = integer(size: timeSize)
            guard transitions.last.map({ $0 < time }) ?? true else {
                throw failure(.invalidData, "transition \(number) at \(time) is not after the one before it")
            }
            transitions.append(time)
        }
        var transitionTypes: [Int] = []
        transitionTypes.reserveCapacity(header.transitions)
        for number in 0..<header.transitions {
            let type = Int(bytes[index])
            guard type < header.types else {
                throw failure(.invalidData, "transition \(number) names type \(type) of \(header.types)")
            }
            transitionTypes.append(type)
            index += 1
        }
        var records: [(offset: Int, isDST: Bool, designation: Int)] = []
        for number in 0..<header.types {
            let offset = Int(integer(size: 4))
            let isDST = bytes[index]
            let designation = Int(bytes[index + 1])
            index += 2
            guard offset != Int(Int32.min), isDST <= 1, designation < header.characters else {
                throw failure(.invalidData, "local time type \(number) has an offset, flag or designation out of range")
            }
            records.append((offset, isDST == 1, designation))
        }
        let characters = bytes[index..<index + header.characters]
        index += header.characters
        var types: [LocalTimeType] = []
        for (number, record) in records.enumerated() {
            let start = characters.startIndex + record.designation
            guard let end = characters[start...].firstIndex(of: 0) else {
                throw failure(.invalidData, "the designation of local time type \(number) has no terminating NUL")
            }
            let abbreviation = String(decoding: characters[start..<end], as: UTF8.self)
            types.append(
                LocalTimeType(
                    utcOffsetSeconds: record.offset,
                    isDaylightSaving: record.isDST,
                    abbreviation: abbreviation
                )
            )
        }
        // Leap-second records and the indicators: checked for size above, not needed for POSIX instants.
        index += header.leapSeconds * (timeSize + 4) + header.standardIndicators + header.utIndicators
        return Block(transitions: transitions, transitionTypes: transitionTypes, types: types)
    }

    /// The footer's TZ string, between two newlines; empty when the zone has no rule.
    mutating func footer() throws(ZoneInfoError) -> String {
        try need(1, "the footer")
        guard bytes[index] == 0x0A else { throw failure(.invalidFooter, "the footer does not start with a newline") }
        guard let end = bytes[(index + 1)...].firstIndex(of: 0x0A) else {
            throw failure(.truncated, "truncated: the footer has no closing newline")
        }
        defer { index = end + 1 }
        return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }
}

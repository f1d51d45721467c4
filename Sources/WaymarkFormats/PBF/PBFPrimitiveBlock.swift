/// Decodes a `PrimitiveBlock` (OSM PBF's data block) into a ``PBFBlock``.
enum PBFPrimitiveBlock {
    /// Position and time units of a block: nanodegrees per unit, their offsets, milliseconds per time unit.
    private struct Units {
        var granularity: Int64 = 100
        var latitudeOffset: Int64 = 0
        var longitudeOffset: Int64 = 0
        var dateGranularity: Int64 = 1000

        /// 1e-7 degree, rounded to the nearest (exact for the usual granularity of 100 nanodegrees).
        ///
        /// Every step reports overflow and the range is checked on `Int64` before narrowing: a damaged block's
        /// raw values can be anything, and a trap here would end the builder instead of naming the block.
        func degrees(_ value: Int64, offset: Int64) throws(PBFError) -> Int32 {
            let scaled = value.multipliedReportingOverflow(by: granularity)
            let nano = scaled.partialValue.addingReportingOverflow(offset)
            let rounded = nano.partialValue.addingReportingOverflow(nano.partialValue >= 0 ? 50 : -50)
            let units = rounded.partialValue / 100
            guard !scaled.overflow, !nano.overflow, !rounded.overflow, (-1_800_000_000...1_800_000_000) ~= units
            else { throw PBFError("a coordinate out of range: \(value) units of \(granularity) nanodegrees") }
            return Int32(units)
        }
    }

    static func decode(_ data: [UInt8]) throws(PBFError) -> PBFBlock {
        var block = PBFBlock()
        var groups: [ArraySlice<UInt8>] = []
        var units = Units()
        var reader = ProtobufReader(data[...])
        while let field = try reader.next() {
            switch field {
            case 1:
                var table = ProtobufReader(try reader.bytesField())
                while let entry = try table.next() {
                    if entry == 1 { block.strings.append(try table.bytesField()) } else { try table.skip() }
                }
            case 2: groups.append(try reader.bytesField())
            case 17: units.granularity = Int64(truncatingIfNeeded: try reader.varint())
            case 18: units.dateGranularity = Int64(truncatingIfNeeded: try reader.varint())
            case 19: units.latitudeOffset = Int64(bitPattern: try reader.varint())
            case 20: units.longitudeOffset = Int64(bitPattern: try reader.varint())
            default: try reader.skip()
            }
        }
        guard units.granularity > 0, units.dateGranularity > 0 else {
            throw PBFError("a block with a granularity of 0")
        }
        for group in groups {
            var reader = ProtobufReader(group)
            while let field = try reader.next() {
                switch field {
                case 1: try node(try reader.bytesField(), units, into: &block)
                case 2: try denseNodes(try reader.bytesField(), units, into: &block)
                case 3: try way(try reader.bytesField(), units, into: &block)
                default: try reader.skip()
                }
            }
        }
        return block
    }

    private static func node(_ bytes: ArraySlice<UInt8>, _ units: Units, into block: inout PBFBlock) throws(PBFError) {
        var reader = ProtobufReader(bytes)
        var id: Int64 = 0
        var keys: [UInt32] = []
        var values: [UInt32] = []
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        while let field = try reader.next() {
            switch field {
            case 1: id = try reader.signed()
            case 2: try reader.packed(into: &keys) { UInt32(truncatingIfNeeded: $0) }
            case 3: try reader.packed(into: &values) { UInt32(truncatingIfNeeded: $0) }
            case 4: try note(try info(try reader.bytesField()), units, in: &block)
            case 8: latitude = try reader.signed()
            case 9: longitude = try reader.signed()
            default: try reader.skip()
            }
        }
        block.nodes.append(
            PBFNode(
                id: id,
                latitude: try units.degrees(latitude, offset: units.latitudeOffset),
                longitude: try units.degrees(longitude, offset: units.longitudeOffset),
                tags: try interleave(keys, values)
            )
        )
    }

    private static func denseNodes(
        _ bytes: ArraySlice<UInt8>,
        _ units: Units,
        into block: inout PBFBlock
    ) throws(PBFError) {
        var reader = ProtobufReader(bytes)
        var ids: [Int64] = []
        var latitudes: [Int64] = []
        var longitudes: [Int64] = []
        var keysValues: [UInt32] = []
        while let field = try reader.next() {
            switch field {
            case 1: try reader.packed(into: &ids, ProtobufReader.zigzag)
            case 5: try note(try denseTimestamp(try reader.bytesField()), units, in: &block)
            case 8: try reader.packed(into: &latitudes, ProtobufReader.zigzag)
            case 9: try reader.packed(into: &longitudes, ProtobufReader.zigzag)
            case 10: try reader.packed(into: &keysValues) { UInt32(truncatingIfNeeded: $0) }
            default: try reader.skip()
            }
        }
        guard latitudes.count == ids.count, longitudes.count == ids.count else {
            throw PBFError(
                "dense nodes with \(ids.count) ids, \(latitudes.count) latitudes, \(longitudes.count) longitudes"
            )
        }
        var id: Int64 = 0
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var tagIndex = 0
        let allTags = keysValues[...]
        block.nodes.reserveCapacity(block.nodes.count + ids.count)
        for index in ids.indices {
            id &+= ids[index]
            latitude &+= latitudes[index]
            longitude &+= longitudes[index]
            // keys_vals: each node's key, value pairs end with a 0; empty when no node of the block has tags.
            let start = tagIndex
            while tagIndex < allTags.count, allTags[tagIndex] != 0 { tagIndex += 2 }
            guard tagIndex <= allTags.count else { throw PBFError("dense nodes' keys_vals end in a key") }
            let tags = allTags[start..<tagIndex]
            if tagIndex < allTags.count { tagIndex += 1 }
            block.nodes.append(
                PBFNode(
                    id: id,
                    latitude: try units.degrees(latitude, offset: units.latitudeOffset),
                    longitude: try units.degrees(longitude, offset: units.longitudeOffset),
                    tags: tags
                )
            )
        }
    }

    private static func way(_ bytes: ArraySlice<UInt8>, _ units: Units, into block: inout PBFBlock) throws(PBFError) {
        var reader = ProtobufReader(bytes)
        var id: Int64 = 0
        var keys: [UInt32] = []
        var values: [UInt32] = []
        var refs: [Int64] = []
        while let field = try reader.next() {
            switch field {
            case 1: id = Int64(bitPattern: try reader.varint())
            case 2: try reader.packed(into: &keys) { UInt32(truncatingIfNeeded: $0) }
            case 3: try reader.packed(into: &values) { UInt32(truncatingIfNeeded: $0) }
            case 4: try note(try info(try reader.bytesField()), units, in: &block)
            case 8: try reader.packed(into: &refs, ProtobufReader.zigzag)
            default: try reader.skip()
            }
        }
        var ref: Int64 = 0
        for index in refs.indices {
            ref &+= refs[index]
            refs[index] = ref
        }
        block.ways.append(PBFWay(id: id, refs: refs, tags: try interleave(keys, values)))
    }

    private static func interleave(_ keys: [UInt32], _ values: [UInt32]) throws(PBFError) -> ArraySlice<UInt32> {
        guard keys.count == values.count else {
            throw PBFError("an element with \(keys.count) keys and \(values.count) values")
        }
        var tags: [UInt32] = []
        tags.reserveCapacity(2 * keys.count)
        for index in keys.indices { tags += [keys[index], values[index]] }
        return tags[...]
    }

    /// The `timestamp` of an `Info`, in the block's time units.
    private static func info(_ bytes: ArraySlice<UInt8>) throws(PBFError) -> Int64? {
        var reader = ProtobufReader(bytes)
        var timestamp: Int64?
        while let field = try reader.next() {
            if field == 2 { timestamp = Int64(bitPattern: try reader.varint()) } else { try reader.skip() }
        }
        return timestamp
    }

    /// The largest `timestamp` of a `DenseInfo` (delta-coded), in the block's time units.
    private static func denseTimestamp(_ bytes: ArraySlice<UInt8>) throws(PBFError) -> Int64? {
        var reader = ProtobufReader(bytes)
        var deltas: [Int64] = []
        while let field = try reader.next() {
            if field == 2 { try reader.packed(into: &deltas, ProtobufReader.zigzag) } else { try reader.skip() }
        }
        var value: Int64 = 0
        var newest: Int64?
        for delta in deltas {
            value &+= delta
            newest = max(newest ?? value, value)
        }
        return newest
    }

    private static func note(_ timestamp: Int64?, _ units: Units, in block: inout PBFBlock) throws(PBFError) {
        guard let timestamp else { return }
        let milliseconds = timestamp.multipliedReportingOverflow(by: units.dateGranularity)
        let seconds = milliseconds.partialValue / 1000
        guard !milliseconds.overflow, PBFHeader.plausibleTimes ~= seconds else {
            throw PBFError("an element's timestamp out of range: \(timestamp) units of \(units.dateGranularity) ms")
        }
        block.newestTimestamp = max(block.newestTimestamp ?? seconds, seconds)
    }
}

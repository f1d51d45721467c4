extension AddressIndex {
    /// Checks every offset and index of the file, so that no lookup reads out of bounds whatever the file holds.
    func checkStructure(file: String) throws(GazetteerError) {
        func corrupt(_ what: String) -> GazetteerError {
            GazetteerError(code: .corrupt, file: file, message: "\(what); \(AddressLayout.kind.rebuild)")
        }
        var previous: UInt32 = 0
        for index in 0...layout.stringCount {
            let offset = uint32(layout.stringOffsets + 4 * index)
            guard offset >= previous, index > 0 || offset == 0 else {
                throw corrupt("its strings' offsets are out of order")
            }
            previous = offset
        }
        guard Int(previous) == layout.stringBytes else { throw corrupt("its strings' offsets end out of bounds") }
        let strings = UInt32(layout.stringCount)
        for index in 0..<layout.localityCount {
            let offset = layout.localities + 12 * index
            guard uint32(offset) < strings, uint32(offset + 4) < strings, uint32(offset + 8) < strings else {
                throw corrupt("locality \(index) names a string it does not hold")
            }
        }
        for index in 0..<layout.addressCount {
            let fields = layout.addressFields + 12 * index
            guard uint32(fields) < strings, uint32(fields + 4) < strings,
                Int(uint32(fields + 8)) < layout.localityCount
            else { throw corrupt("address \(index) names a string or locality it does not hold") }
            guard inRange(coordinate(at: index)), finite(position(layout.addressPositions + 12 * index)) else {
                throw corrupt("address \(index) has a position out of range")
            }
        }
        for index in 0..<layout.pieceCount {
            let (start, end) = pieceEnds(index)
            guard uint32(layout.pieceNames + 4 * index) < strings,
                Int(uint32(layout.pieceLocalities + 4 * index)) < layout.localityCount
            else { throw corrupt("street piece \(index) names a string or locality it does not hold") }
            guard inRange(start), inRange(end), finite(position(layout.piecePositions + 12 * index)) else {
                throw corrupt("street piece \(index) has a position out of range")
            }
        }
    }

    private func inRange(_ coordinate: Coordinate) -> Bool {
        abs(coordinate.latitude) <= 90 && abs(coordinate.longitude) <= 180
    }

    private func finite(_ position: EarthCentered) -> Bool {
        position.x.isFinite && position.y.isFinite && position.z.isFinite
    }
}

// fuzz-target: gazetteer
// fuzz-seeds: data/places/cities1000.tsv.gz
@testable import WaymarkCore

/// The gazetteer file (mapped from an SD card that can rot, `[places]`): whatever its bytes, opening it throws or
/// gives a gazetteer whose every place and nearest lookup stay within the file. The checksum would stop almost
/// every mutation at the header, so the input is either a file whose checksum and size this target makes hold
/// (it starts with the magic), or the rows of a source table, built into a file by ``GazetteerBuilder``, which
/// must open, and then damaged at one place the input chooses, under a checksum made to hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGazetteer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    if input.starts(with: GazetteerLayout.magic) {
        read(sealed(input))
        return 0
    }
    let countries = Array("iso\tname\nIR\tIran\nDE\tGermany\nFR\tFrance\nUS\tUnited States\n".utf8)
    guard
        let file = try? GazetteerBuilder.build(
            cities: input,
            citiesName: "cities.tsv",
            countries: countries,
            countriesName: "countries.tsv"
        )
    else { return 0 }
    guard read(file) else { fatalError("a gazetteer the builder made does not open") }
    var damaged = file
    let hash = input.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    let offset = GazetteerLayout.headerSize + Int(hash % UInt64(max(1, file.count - GazetteerLayout.headerSize)))
    if offset < damaged.count { damaged[offset] ^= UInt8(truncatingIfNeeded: hash >> 56) | 1 }
    read(sealed(damaged))
    return 0
}

/// `file` with its declared size and checksum made to hold, when its size allows a checksum (multiples of 32).
private func sealed(_ file: [UInt8]) -> [UInt8] {
    guard file.count >= GazetteerLayout.headerSize, file.count % 32 == 0 else { return file }
    var sealed = file
    withUnsafeBytes(of: UInt64(file.count).littleEndian) { sealed.replaceSubrange(40..<48, with: $0) }
    // The checksum reads 64-bit words: from an 8-byte aligned copy, as a mapping is.
    let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: file.count, alignment: 8)
    defer { aligned.deallocate() }
    aligned.copyBytes(from: sealed)
    let checksum = GazetteerChecksum.of(
        UnsafeRawBufferPointer(aligned),
        from: GazetteerLayout.headerSize,
        to: file.count
    )
    withUnsafeBytes(of: checksum.littleEndian) { sealed.replaceSubrange(48..<56, with: $0) }
    return sealed
}

/// Opens `file` and reads every place (up to 2,000) and a few nearest lookups; false when it does not open.
@discardableResult
private func read(_ file: [UInt8]) -> Bool {
    guard let gazetteer = try? Gazetteer(copying: file, file: "places.bin") else { return false }
    for index in 0..<min(gazetteer.count, 2_000) { _ = gazetteer.entry(at: index) }
    for (latitude, longitude) in [(32.05, 48.86), (0.0, 0.0), (-89.9, 179.9), (52.52, 13.40)] {
        if let (index, distance) = gazetteer.nearest(to: Coordinate(latitude: latitude, longitude: longitude)) {
            require(index >= 0 && index < gazetteer.count, "nearest place \(index) of \(gazetteer.count)")
            require(distance >= 0, "a distance of \(distance) m")
        }
    }
    return true
}

/// Writes the bytes of an address file (``AddressLayout``) from records already in tree order.
enum AddressFileWriter {
    static func write(
        addresses: [SourceAddress],
        pieces: [StreetPiece],
        localities: [[UInt32]],
        strings: StringNumbering
    ) -> [UInt8] {
        let layout = AddressLayout(
            addressCount: addresses.count,
            pieceCount: pieces.count,
            localityCount: localities.count,
            stringCount: strings.strings.count,
            stringBytes: strings.byteCount
        )
        var file = ByteWriter(capacity: layout.fileSize)
        file.append(AddressLayout.kind.magic)
        file.append(AddressLayout.kind.version)
        for count in [layout.addressCount, layout.pieceCount, layout.localityCount, layout.stringCount] {
            file.append(UInt32(count))
        }
        file.append(UInt32(layout.stringBytes))
        file.append(UInt64(0))
        file.append(UInt64(layout.fileSize))
        file.append(UInt64(0))  // the checksum: MappedIndexHeader.seal
        file.append(UInt64(0))
        for address in addresses { file.append(address.position) }
        for address in addresses {
            file.append(UInt32(bitPattern: address.latitude))
            file.append(UInt32(bitPattern: address.longitude))
        }
        for address in addresses { file.append(address.object) }
        for address in addresses {
            file.append(address.houseNumber)
            file.append(address.street)
            file.append(address.locality)
        }
        for piece in pieces { file.append(piece.midpoint) }
        for piece in pieces {
            for value in [piece.start.0, piece.start.1, piece.end.0, piece.end.1] {
                file.append(UInt32(bitPattern: value))
            }
        }
        for piece in pieces { file.append(piece.name) }
        for piece in pieces { file.append(piece.locality) }
        for triple in localities { for index in triple { file.append(index) } }
        var offset: UInt32 = 0
        file.append(offset)
        for string in strings.strings {
            offset += UInt32(string.count)
            file.append(offset)
        }
        for string in strings.strings { file.append(string) }
        file.pad(to: layout.fileSize)
        precondition(file.bytes.count == layout.fileSize, "the layout and the writer disagree")
        var bytes = file.bytes
        MappedIndexHeader.seal(&bytes)
        return bytes
    }
}

extension ByteWriter {
    /// An earth-centred position as 3 × Float32.
    mutating func append(_ position: (x: Float, y: Float, z: Float)) {
        append(position.x.bitPattern)
        append(position.y.bitPattern)
        append(position.z.bitPattern)
    }
}

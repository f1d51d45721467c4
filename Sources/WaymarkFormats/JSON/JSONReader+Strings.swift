extension JSONReader {
    /// Reads a string, escapes decoded.
    ///
    /// - Throws: ``JSONReaderError`` for anything but a well-formed string: a control character or invalid UTF-8
    ///   inside it, an unknown escape, a `\u` escape of a lone surrogate, a missing closing quote.
    public mutating func readString() throws(JSONReaderError) -> String {
        guard try peek() == .string else { throw error("expected a string, found \(describeByte(at: index))") }
        return try scanString(decoding: true) ?? ""
    }

    /// Reads the string at ``index``; its text when `decoding`, else nil.
    @discardableResult
    mutating func scanString(decoding: Bool) throws(JSONReaderError) -> String? {
        let opening = position
        index += 1
        let start = index
        // Most strings are plain ASCII: find their end without looking at each byte twice.
        var offset = index
        bytes.withUnsafeBufferPointer { bytes in
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                offset += 1
            }
        }
        index = offset
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard decoding else { return nil }
                if escaped { return String(decoding: scratch, as: UTF8.self) }
                return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
            case UInt8(ascii: "\\"):
                if !escaped && decoding {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: bytes[start..<index])
                }
                escaped = true
                try escape(decoding: decoding)
            case 0..<0x20:
                let name = byte == 0x0A ? "a line break" : "control character U+\(byte.hexadecimal(digits: 4))"
                throw error("\(name) in a string: escape it, or close the string that opens at \(opening)")
            case 0x20..<0x80:
                if escaped && decoding { scratch.append(byte) }
                index += 1
            default:
                let end = Self.endOfUTF8Sequence(in: bytes, at: index)
                guard end > index else {
                    throw error("\(describeByte(at: index)) in a string is not UTF-8")
                }
                if escaped && decoding { scratch.append(contentsOf: bytes[index..<end]) }
                index = end
            }
        }
        throw JSONReaderError(
            position: opening,
            message: "the string is not closed: the text ends before its closing quote"
        )
    }

    /// Reads the escape at ``index`` (a backslash), appending what it stands for to ``scratch`` when `decoding`.
    private mutating func escape(decoding: Bool) throws(JSONReaderError) {
        let backslash = index
        guard index + 1 < bytes.count else { throw error("the text ends inside an escape") }
        let letter = bytes[index + 1]
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            if decoding { scratch.append(simple) }
            index += 2
            return
        }
        guard letter == UInt8(ascii: "u") else {
            let written =
                (0x21...0x7E).contains(letter)
                ? "\\\(Character(Unicode.Scalar(letter)))" : "\\ followed by \(describeByte(at: index + 1))"
            throw error("unknown escape \(written); JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        let unit = try codeUnit()
        let scalar: Unicode.Scalar
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                index = backslash
                throw error(
                    "\\u\(unit.hexadecimal(digits: 4)) is half a surrogate pair: a \\uDC00-\\uDFFF must follow"
                )
            }
            let low = try codeUnit()
            guard (0xDC00...0xDFFF).contains(low) else {
                index = backslash
                throw error(
                    "\\u\(unit.hexadecimal(digits: 4)) is followed by \\u\(low.hexadecimal(digits: 4)), "
                        + "not by the low half of a surrogate pair (\\uDC00-\\uDFFF)"
                )
            }
            let value = 0x1_0000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            scalar = Unicode.Scalar(value)!
        case 0xDC00...0xDFFF:
            index = backslash
            throw error("\\u\(unit.hexadecimal(digits: 4)) is the low half of a surrogate pair without its high half")
        default:
            scalar = Unicode.Scalar(unit)!
        }
        if decoding { UTF8.encode(scalar) { scratch.append($0) } }
    }

    /// Reads `\uXXXX` at ``index``.
    private mutating func codeUnit() throws(JSONReaderError) -> UInt16 {
        index += 2
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = bytes[index].hexadecimalDigitValue else {
                throw error("expected 4 hexadecimal digits after \\u, found \(describeByte(at: index))")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// The offset after the UTF-8 sequence of a character beyond ASCII starting at `offset`; `offset` itself when
    /// the bytes there are not one (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF).
    static func endOfUTF8Sequence(in bytes: [UInt8], at offset: Int) -> Int {
        let lead = bytes[offset]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            second = 0x80...0x9F
        case 0xF0:
            length = 4
            second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            second = 0x80...0x8F
        default: return offset
        }
        guard offset + length <= bytes.count, second.contains(bytes[offset + 1]) else { return offset }
        for continuation in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[continuation]) {
            return offset
        }
        return offset + length
    }
}

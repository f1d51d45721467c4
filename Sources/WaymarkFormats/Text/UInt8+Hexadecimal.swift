extension UInt8 {
    /// The value of the byte as a hexadecimal digit (`0-9`, `a-f`, `A-F`), or nil if it is not one.
    var hexadecimalDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension BinaryInteger {
    /// The value in upper-case hexadecimal with at least `digits` digits, as messages write code points and
    /// bytes: `00E9`, `FF`.
    func hexadecimal(digits: Int) -> String {
        let text = String(self, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

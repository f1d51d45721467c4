/// Appending text to a byte buffer in one copy: the writers of events, tracks and exports put millions of
/// short pieces into their buffers, and a `String`'s UTF-8 view, or a digit at a time, costs several times
/// what the bytes do.
extension [UInt8] {
    /// Appends the bytes of a literal.
    @inlinable
    public mutating func append(literal text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, with leading zeros up to `minimumDigits` (1 to 20) digits.
    @inlinable
    public mutating func append(decimal value: UInt64, minimumDigits: Int = 1) {
        precondition((1...20).contains(minimumDigits), "append(decimal:minimumDigits:) of \(minimumDigits) digits")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0 || digits.count - start < minimumDigits
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `value` in decimal, with a `-` when it is negative.
    @inlinable
    public mutating func append(decimal value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        append(decimal: value.magnitude)
    }
}

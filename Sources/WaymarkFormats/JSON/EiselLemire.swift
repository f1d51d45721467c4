/// Decimal to `Double` for up to 19 significant digits, exactly and without a string: the Eisel–Lemire algorithm
/// (Lemire, "Number Parsing at a Gigabyte per Second", 2021), as Go's `strconv` and Wuffs write it.
///
/// The value `significand × 10^exponent` is multiplied out with a 128-bit approximation of the power of ten; when
/// the product leaves no doubt about the rounding, the result is the correctly rounded `Double`. Otherwise, and
/// for exponents outside ``exponents``, the caller falls back to the standard library's conversion.
enum EiselLemire {
    /// The decimal exponents with a power of ten in the table: those of coordinates and distances, with room.
    static let exponents = -64...64

    /// The correctly rounded `Double` nearest to `significand × 10^exponent`, negated if `negative`; nil when this
    /// algorithm cannot decide (a halfway case, an exponent outside ``exponents``, a subnormal or infinite result).
    static func double(significand: UInt64, exponent: Int, negative: Bool) -> Double? {
        if significand == 0 { return negative ? -0.0 : 0 }
        guard exponents.contains(exponent) else { return nil }
        let power = powersOfTen[exponent - exponents.lowerBound]

        // Normalisation.
        let leadingZeros = significand.leadingZeroBitCount
        let normalized = significand << leadingZeros
        var binaryExponent = UInt64(((217_706 * exponent) >> 16) + 64 + 1023) &- UInt64(leadingZeros)

        // Multiplication, and a wider approximation when the first one is not conclusive.
        var (high, low) = normalized.multipliedFullWidth(by: power.high)
        if high & 0x1FF == 0x1FF && low &+ normalized < normalized {
            let (wideHigh, wideLow) = normalized.multipliedFullWidth(by: power.low)
            var mergedHigh = high
            let mergedLow = low &+ wideHigh
            if mergedLow < low { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF && mergedLow &+ 1 == 0 && wideLow &+ normalized < normalized {
                return nil
            }
            high = mergedHigh
            low = mergedLow
        }

        // Shifting to 54 bits.
        let topBit = high >> 63
        var mantissa = high >> (topBit + 9)
        binaryExponent &-= 1 ^ topBit

        // Halfway ambiguity.
        if low == 0 && high & 0x1FF == 0 && mantissa & 3 == 1 { return nil }

        // From 54 to 53 bits, rounding to even.
        mantissa &+= mantissa & 1
        mantissa >>= 1
        if mantissa >> 53 > 0 {
            mantissa >>= 1
            binaryExponent &+= 1
        }
        // Zero (wrapped) is subnormal, 0x7FF and above infinite or NaN.
        guard binaryExponent &- 1 < 0x7FF - 1 else { return nil }
        let bits = binaryExponent << 52 | mantissa & 0x000F_FFFF_FFFF_FFFF | (negative ? 1 << 63 : 0)
        return Double(bitPattern: bits)
    }

    /// For each exponent in ``exponents``, the 128 most significant bits of 10^exponent, rounded down.
    static let powersOfTen: [(high: UInt64, low: UInt64)] = exponents.map(truncatedPowerOfTen)

    /// The 128 most significant bits of 10^exponent, rounded down, computed exactly with integers: for a
    /// negative exponent, ⌊2^(L + 127) / 10^-exponent⌋ where 10^-exponent has L bits.
    static func truncatedPowerOfTen(_ exponent: Int) -> (high: UInt64, low: UInt64) {
        var power = LongNumber(1)
        for _ in 0..<abs(exponent) { power.multiply(by: 10) }
        let bitCount = power.bitCount
        var result = (high: UInt64(0), low: UInt64(0))
        func appendBit(_ bit: Bool) {
            result.high = result.high << 1 | result.low >> 63
            result.low = result.low << 1 | (bit ? 1 : 0)
        }
        if exponent >= 0 {
            for position in stride(from: bitCount - 1, to: bitCount - 129, by: -1) {
                appendBit(position >= 0 && power.bit(position))
            }
        } else {
            var remainder = LongNumber(1)
            for _ in 0..<(bitCount + 127) {
                remainder.shiftLeftOne()
                let fits = remainder >= power
                if fits { remainder.subtract(power) }
                appendBit(fits)
            }
        }
        return result
    }

    /// A non-negative integer of any size, for computing the table once.
    private struct LongNumber: Comparable {
        /// Little-endian 32-bit limbs, without leading zero limbs.
        private var limbs: [UInt32]

        init(_ value: UInt32) { limbs = [value] }

        var bitCount: Int { (limbs.count - 1) * 32 + (32 - limbs[limbs.count - 1].leadingZeroBitCount) }

        func bit(_ position: Int) -> Bool { limbs[position / 32] >> (position % 32) & 1 == 1 }

        mutating func multiply(by factor: UInt32) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = UInt64(limbs[index]) * UInt64(factor) + carry
                limbs[index] = UInt32(truncatingIfNeeded: product)
                carry = product >> 32
            }
            if carry > 0 { limbs.append(UInt32(carry)) }
        }

        mutating func shiftLeftOne() {
            var carry: UInt32 = 0
            for index in limbs.indices {
                let limb = limbs[index]
                limbs[index] = limb << 1 | carry
                carry = limb >> 31
            }
            if carry > 0 { limbs.append(carry) }
        }

        /// `self - other`, for `other <= self`.
        mutating func subtract(_ other: LongNumber) {
            var borrow: Int64 = 0
            for index in limbs.indices {
                var difference =
                    Int64(limbs[index]) - borrow - (index < other.limbs.count ? Int64(other.limbs[index]) : 0)
                borrow = difference < 0 ? 1 : 0
                if difference < 0 { difference += 1 << 32 }
                limbs[index] = UInt32(difference)
            }
            while limbs.count > 1 && limbs[limbs.count - 1] == 0 { limbs.removeLast() }
        }

        static func < (lhs: LongNumber, rhs: LongNumber) -> Bool {
            if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
            for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
                return lhs.limbs[index] < rhs.limbs[index]
            }
            return false
        }
    }
}

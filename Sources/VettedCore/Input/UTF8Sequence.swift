/// Well-formed UTF-8, as in Unicode's table 3-7: no overlong forms, no
/// surrogates, nothing above U+10FFFF.
@_spi(Scanning) public enum UTF8Sequence {
    /// Length of the well-formed sequence starting with `lead` followed by
    /// `b1`, `b2`, `b3` (pass 0 for bytes past the end), or 0 if it is not
    /// well-formed.
    @inline(__always)
    @inlinable
    public static func length(lead: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) -> Int {
        @inline(__always) func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        switch lead {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return isContinuation(b1) ? 2 : 0
        case 0xE0:
            return (0xA0...0xBF).contains(b1) && isContinuation(b2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return isContinuation(b1) && isContinuation(b2) ? 3 : 0
        case 0xED:
            return (0x80...0x9F).contains(b1) && isContinuation(b2) ? 3 : 0
        case 0xF0:
            return (0x90...0xBF).contains(b1) && isContinuation(b2) && isContinuation(b3) ? 4 : 0
        case 0xF1...0xF3:
            return isContinuation(b1) && isContinuation(b2) && isContinuation(b3) ? 4 : 0
        case 0xF4:
            return (0x80...0x8F).contains(b1) && isContinuation(b2) && isContinuation(b3) ? 4 : 0
        default:
            return 0
        }
    }

    /// Appends the UTF-8 encoding of `scalar` (a valid Unicode scalar value) to `output`.
    @inlinable
    public static func append(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18 & 0x07))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

/// What one read or write of an input may still expand into, in bytes (see
/// *Amplification* in ``Limits``). Readers and printers charge it as they
/// materialise or write; a charge past the allowance is refused, and the
/// caller throws `amplificationLimitExceeded` where it stands.
public struct ExpansionBudget: Sendable, Hashable {
    /// What a value costs beside the bytes of its string or data.
    public static let valueCost = 16

    /// The bytes allowed in all.
    public let allowance: Int
    /// The bytes charged so far (never above ``allowance``).
    public private(set) var spent = 0

    /// The budget for an input of `inputBytes` under `limits`.
    public init(limits: Limits, inputBytes: Int) {
        allowance = limits.expansionAllowance(forInputBytes: inputBytes)
    }

    /// A budget of exactly `allowance` bytes.
    public init(allowance: Int) { self.allowance = Swift.max(0, allowance) }

    /// Charges `bytes` (negative counts as zero); `false`, and nothing charged, when that would pass the allowance.
    @inline(__always)
    public mutating func charge(_ bytes: Int) -> Bool {
        let bytes = Swift.max(0, bytes)
        guard bytes <= allowance - spent else { return false }
        spent += bytes
        return true
    }

    /// Charges one value and the `payload` bytes of its string or data.
    @inline(__always)
    public mutating func chargeValue(payload: Int = 0) -> Bool {
        let (total, overflow) = Self.valueCost.addingReportingOverflow(Swift.max(0, payload))
        return !overflow && charge(total)
    }

    /// The message for a refused charge.
    public var exceededMessage: String {
        "the input expands past \(allowance) bytes (amplification limit: Limits.maxAmplification × its size, at least Limits.amplificationThreshold)"
    }
}

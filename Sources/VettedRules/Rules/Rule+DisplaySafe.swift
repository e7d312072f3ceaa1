public import VettedCore

// Text that is safe to show: what a terminal, a log line or a web page
// renders is what the text says. Untrusted text can carry escape sequences
// (ESC [2J clears a terminal, ESC ]0; sets its title), NUL, bidirectional
// overrides that reorder what is shown ("Trojan Source"), and invisible
// characters that hide what is there.

extension VettedError.Code {
    /// A NUL character (U+0000).
    public static let nulCharacter = VettedError.Code("nulCharacter")
    /// A C0 or C1 control character (U+0001–U+001F, U+007F–U+009F) other than those allowed,
    /// or a line or paragraph separator (U+2028, U+2029).
    public static let controlCharacter = VettedError.Code("controlCharacter")
    /// A bidirectional control: an embedding, override, isolate or mark (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).
    public static let bidiControl = VettedError.Code("bidiControl")
    /// Another invisible format character (general category Cf: zero-width space and joiners, word joiner, BOM, soft hyphen, …).
    public static let invisibleCharacter = VettedError.Code("invisibleCharacter")
    /// A noncharacter code point (U+FDD0–U+FDEF, U+xxFFFE, U+xxFFFF).
    public static let nonCharacter = VettedError.Code("nonCharacter")
}

/// What ``Rule/displaySafe(allowing:)`` lets through besides visible text and spaces.
public struct DisplayTextAllowance: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Horizontal tab (U+0009).
    public static let tab = DisplayTextAllowance(rawValue: 1 << 0)
    /// Line feed (U+000A), and carriage return (U+000D) before it or alone.
    public static let newlines = DisplayTextAllowance(rawValue: 1 << 1)
    /// Zero-width joiner and non-joiner (U+200C, U+200D), which emoji sequences and some scripts need.
    public static let joiners = DisplayTextAllowance(rawValue: 1 << 2)
}

extension Rule where Value == String {
    /// Text that is safe to show: no NUL, no C0 or C1 control characters
    /// (tab and newlines only when allowed), no line or paragraph separators
    /// (U+2028, U+2029), no bidirectional controls, no
    /// other invisible format characters (joiners only when allowed), no
    /// noncharacters. (A Swift `String` holds only valid Unicode scalar
    /// values: ill-formed input never gets this far.)
    ///
    /// The message names the code point and its position in scalars, never the text.
    public static func displaySafe(allowing allowance: DisplayTextAllowance = []) -> Rule {
        var allowing: [RuleParameter] = []
        if allowance.contains(.tab) { allowing.append(.string("tab")) }
        if allowance.contains(.newlines) { allowing.append(.string("newlines")) }
        if allowance.contains(.joiners) { allowing.append(.string("joiners")) }
        return Rule(describedAs: RuleDescriptor("displaySafe", ["allowing": .list(allowing)])) { value in
            // One pass over the UTF-8 bytes: printable ASCII is skipped byte by byte, other
            // scalars are assembled from their bytes (a String's UTF-8 is always well-formed)
            // and most are answered by range. Only a scalar that needs its properties looked
            // up, or that is refused, goes the scalar-by-scalar way, which also counts positions.
            let bytes = value.utf8.span
            let count = bytes.count
            var index = 0
            while index < count {
                let lead = bytes[index]
                if lead &- 0x20 < 0x5F {  // printable ASCII, 0x20...0x7E, in one comparison
                    index += 1
                    continue
                }
                if lead < 0x80 {
                    // A control character: allowed only as tab or newline, when asked for.
                    guard unsafeDisplayCodeByProperties(Unicode.Scalar(lead), allowance) == nil else { return displayViolation(in: value, allowance) }
                    index += 1
                    continue
                }
                guard lead >= 0xC0 else { return displayViolation(in: value, allowance) }
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                guard length <= count - index else { return displayViolation(in: value, allowance) }
                var scalar = UInt32(lead) & (0x7F >> UInt32(length))
                for offset in 1..<length {
                    scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F)
                }
                index += length
                if UnsafeScalar.isSafeByRange(scalar) { continue }
                guard let decoded = Unicode.Scalar(scalar), unsafeDisplayCodeByProperties(decoded, allowance) == nil else {
                    return displayViolation(in: value, allowance)
                }
            }
            return nil
        }
    }
}

/// The first scalar of `value` that may not be shown, with its position, or `nil`.
private func displayViolation(in value: String, _ allowance: DisplayTextAllowance) -> RuleViolation? {
    for (position, scalar) in value.unicodeScalars.enumerated() {
        if let code = unsafeDisplayCode(scalar, allowance) {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return RuleViolation(
                code, "must be safe to display: \(name) at scalar \(position)",
                parameters: ["codePoint": .string(name), "position": .integer(position)])
        }
    }
    return nil
}

/// The defect `scalar` is in text to be shown, or `nil` when it may be shown
/// (``VettedCore/UnsafeScalar``, the classifier excerpts escape by, less the allowances).
@inline(__always)
package func unsafeDisplayCode(_ scalar: Unicode.Scalar, _ allowance: DisplayTextAllowance) -> VettedError.Code? {
    UnsafeScalar(scalar).flatMap { code(for: $0, allowance) }
}

/// ``unsafeDisplayCode(_:_:)`` by the scalar's properties alone, for any scalar.
package func unsafeDisplayCodeByProperties(_ scalar: Unicode.Scalar, _ allowance: DisplayTextAllowance) -> VettedError.Code? {
    UnsafeScalar(byProperties: scalar).flatMap { code(for: $0, allowance) }
}

private func code(for kind: UnsafeScalar, _ allowance: DisplayTextAllowance) -> VettedError.Code? {
    switch kind {
    case .nul: .nulCharacter
    case .tab: allowance.contains(.tab) ? nil : .controlCharacter
    case .newline: allowance.contains(.newlines) ? nil : .controlCharacter
    case .control: .controlCharacter
    case .bidiControl: .bidiControl
    case .joiner: allowance.contains(.joiners) ? nil : .invisibleCharacter
    case .invisible: .invisibleCharacter
    case .nonCharacter: .nonCharacter
    }
}

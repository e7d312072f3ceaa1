/// What can make a Unicode scalar unsafe to show: the one classifier behind
/// both an excerpt's escaping (``Excerpt``) and the `displaySafe` rule, so that
/// what a log line escapes and what a rule refuses are the same scalars.
///
/// Untrusted text can carry escape sequences (ESC [2J clears a terminal), NUL,
/// bidirectional overrides that reorder what is shown ("Trojan Source"), line
/// separators that forge a new line, and invisible characters that hide what
/// is there.
package enum UnsafeScalar: Sendable, Hashable {
    /// U+0000.
    case nul
    /// U+0009.
    case tab
    /// U+000A and U+000D.
    case newline
    /// Another C0 or C1 control (U+0001–U+001F, U+007F–U+009F), or a line or
    /// paragraph separator (U+2028, U+2029), which ends a line as a newline does.
    case control
    /// An embedding, override, isolate or mark (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).
    case bidiControl
    /// The zero-width joiner and non-joiner (U+200C, U+200D), which emoji sequences and some scripts need.
    case joiner
    /// Another format character (general category Cf): zero-width space, word joiner, BOM, soft hyphen, tags, ….
    case invisible
    /// A noncharacter code point (U+FDD0–U+FDEF, U+xxFFFE, U+xxFFFF).
    case nonCharacter

    /// What makes `scalar` unsafe to show, or `nil`. Most text is answered by
    /// range (printable ASCII; Latin to Arabic but the soft hyphen; U+2070 to
    /// the noncharacters at U+FDD0; the emoji planes), without looking up the
    /// scalar's properties, which costs far more than the check.
    @inline(__always)
    package init?(_ scalar: Unicode.Scalar) {
        if Self.isSafeByRange(scalar.value) { return nil }
        self.init(byProperties: scalar)
    }

    /// The same answer by the scalar's properties alone, for any scalar.
    package init?(byProperties scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0: self = .nul
        case 0x09: self = .tab
        case 0x0A, 0x0D: self = .newline
        case 0x01...0x1F, 0x7F...0x9F, 0x2028, 0x2029: self = .control
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: self = .bidiControl
        case 0x200C, 0x200D: self = .joiner
        default:
            if scalar.properties.isNoncharacterCodePoint {
                self = .nonCharacter
            } else if scalar.properties.generalCategory == .format {
                self = .invisible
            } else {
                return nil
            }
        }
    }

    /// Printable ASCII, and the ranges that hold no control, separator, format character or noncharacter.
    @inline(__always)
    package static func isSafeByRange(_ value: UInt32) -> Bool {
        (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0x600 && value != 0xAD) || (value >= 0x2070 && value < 0xFDD0)
            || (value >= 0x1F000 && value < 0x1FFFE)
    }
}

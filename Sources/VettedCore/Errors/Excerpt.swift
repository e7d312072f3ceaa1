/// A short piece of untrusted input, safe to print and to log.
///
/// At most ``maximumBytes`` bytes of UTF-8 text. Control characters, bidi and
/// other invisible format characters, backslashes and invalid UTF-8 are
/// escaped (`\n`, `\u{202E}`, `\\`, `\xFF`), so an excerpt can neither break a
/// log line nor hide what it shows.
public struct Excerpt: Sendable, Hashable, CustomStringConvertible {
    /// Longest excerpt text, in UTF-8 bytes, escapes included.
    public static let maximumBytes = 40
    /// Most input bytes shown before the offset.
    public static let contextBytes = 12

    /// The escaped text.
    public let text: String
    /// Position of the offending byte in ``text``, in characters (for a caret).
    public let caret: Int

    public var description: String { text }

    public init(text: String, caret: Int) {
        self.text = text
        self.caret = caret
    }

    /// Escapes `before` and `after` (the bytes on either side of the offset)
    /// into one capped excerpt.
    public init(before: [UInt8], after: [UInt8]) {
        let budgetBefore = Self.maximumBytes / 3
        if Self.isPlain(before, quotes: false), Self.isPlain(after, quotes: false) {
            // Printable ASCII with no backslash: every byte is its own piece, one byte and one character wide.
            let prefix = before.suffix(budgetBefore)
            text = String(decoding: prefix, as: UTF8.self) + Self.cappedPlain(after[...], maximumBytes: Self.maximumBytes - prefix.count)
            caret = prefix.count
            return
        }
        var prefix = Self.pieces(of: before)
        var prefixBytes = prefix.reduce(0) { $0 + $1.utf8.count }
        while prefixBytes > budgetBefore, !prefix.isEmpty {
            prefixBytes -= prefix.removeFirst().utf8.count
        }
        let suffix = Self.capped(Self.pieces(of: after), maximumBytes: Self.maximumBytes - prefixBytes)
        let prefixText = prefix.joined()
        text = prefixText + suffix
        caret = prefixText.count
    }

    /// `string` escaped and capped at `maximumBytes` UTF-8 bytes; a cut is marked with `…`.
    ///
    /// Only the first `maximumBytes + 4` bytes are read: every byte escapes to at
    /// least one, so what lies past them would be cut anyway, and escaping a
    /// long string costs no more than escaping its excerpt.
    public static func escape(_ string: String, maximumBytes: Int = Excerpt.maximumBytes, quotes: Bool = true) -> String {
        // Short printable ASCII, the common case (names, schema locations): the string itself.
        if string.utf8.count <= maximumBytes, isPlain(string, quotes: quotes) { return string }
        let (window, overflow) = Swift.max(0, maximumBytes).addingReportingOverflow(4)
        let bytes = overflow ? Array(string.utf8) : Array(string.utf8.prefix(window))
        if isPlain(bytes, quotes: quotes) { return cappedPlain(bytes[...], maximumBytes: maximumBytes) }
        return capped(pieces(of: bytes, escapingQuotes: quotes), maximumBytes: maximumBytes)
    }

    /// Whether every byte is printable ASCII that needs no escape (no backslash, nor a quote when
    /// `quotes`): then each byte is a piece of its own, and ``capped(_:maximumBytes:)`` comes to
    /// ``cappedPlain(_:maximumBytes:)`` without making a string per byte.
    static func isPlain(_ bytes: [UInt8], quotes: Bool) -> Bool {
        bytes.allSatisfy { isPlain($0, quotes: quotes) }
    }

    /// Whether every byte of `string` is printable ASCII that needs no escape (no backslash, nor
    /// a quote when `quotes`): then it escapes to itself, here and in JSON.
    package static func isPlain(_ string: String, quotes: Bool) -> Bool {
        isPlain(string.utf8.span, quotes: quotes)
    }

    /// Whether every byte of `bytes` is printable ASCII that needs no escape (see ``isPlain(_:quotes:)-(String,_)``).
    package static func isPlain(_ bytes: Span<UInt8>, quotes: Bool) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            guard isPlain(bytes[index], quotes: quotes) else { return false }
            index &+= 1
        }
        return true
    }

    @inlinable @inline(__always)
    package static func isPlain(_ byte: UInt8, quotes: Bool) -> Bool {
        (0x20...0x7E).contains(byte) && byte != 0x5C && !(quotes && byte == 0x22)
    }

    /// ``capped(_:maximumBytes:)`` of bytes that ``isPlain(_:quotes:)``.
    static func cappedPlain(_ bytes: ArraySlice<UInt8>, maximumBytes: Int) -> String {
        if bytes.count <= maximumBytes { return String(decoding: bytes, as: UTF8.self) }
        let ellipsis = "…"
        return String(decoding: bytes.prefix(Swift.max(0, maximumBytes - ellipsis.utf8.count)), as: UTF8.self) + ellipsis
    }

    static func capped(_ pieces: [String], maximumBytes: Int) -> String {
        let total = pieces.reduce(0) { $0 + $1.utf8.count }
        if total <= maximumBytes { return pieces.joined() }
        let ellipsis = "…"
        var used = ellipsis.utf8.count
        var result = ""
        for piece in pieces {
            let size = piece.utf8.count
            if used + size > maximumBytes { break }
            used += size
            result += piece
        }
        return result + ellipsis
    }

    /// Splits bytes into printable pieces: one valid character, or one escape.
    static func pieces(of bytes: [UInt8], escapingQuotes: Bool = false) -> [String] {
        var pieces: [String] = []
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = UTF8Sequence.length(
                lead: lead,
                bytes.count > index + 1 ? bytes[index + 1] : 0,
                bytes.count > index + 2 ? bytes[index + 2] : 0,
                bytes.count > index + 3 ? bytes[index + 3] : 0
            )
            guard length > 0 else {
                pieces.append("\\x" + hex(UInt32(lead), digits: 2))
                index += 1
                continue
            }
            let scalarText = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            index += length
            guard let scalar = scalarText.unicodeScalars.first else { continue }
            pieces.append(escaped(scalar, quotes: escapingQuotes) ?? scalarText)
        }
        return pieces
    }

    private static func escaped(_ scalar: Unicode.Scalar, quotes: Bool) -> String? {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x5C: return "\\\\"
        case 0x22 where quotes: return "\\\""
        default:
            // Everything the display-safety rule refuses (controls, separators, bidi
            // controls, invisible format characters, noncharacters): one classifier.
            guard UnsafeScalar(scalar) != nil else { return nil }
            return "\\u{" + hex(scalar.value, digits: 0) + "}"
        }
    }

    package static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
    }
}

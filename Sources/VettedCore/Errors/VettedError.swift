/// The one error every Vetted stage throws: what is wrong, and exactly where.
///
/// An error carries
/// - a ``code`` named after the defect (`duplicateKey`, `unterminatedString`, …),
/// - the byte ``offset`` in the input where the defect was found,
/// - the ``path`` inside the document (`$[3].tags[1]`),
/// - a one-line ``message`` fit for a person, and
/// - an ``excerpt`` of the input around the offset, escaped and capped at
///   ``Excerpt/maximumBytes`` bytes, so that logging an error never logs a payload.
///
/// ``line`` and ``column`` are computed only when asked, from the input the
/// error keeps a reference to (no copy is made; call ``droppingSource()`` to
/// release it).
///
/// Two errors are equal when they report the same defect at the same place
/// (code, offset and path); the message and excerpt are presentation.
public struct VettedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var code: Code
    /// Byte offset of the defect in the input, when the error is tied to input bytes.
    public var offset: Int?
    /// Where the defect is inside the document; empty (`$`) at the top level.
    public var path: DocumentPath
    /// One line for a person. Never contains more of the input than the escaped ``excerpt``.
    public var message: String
    /// The input around ``offset``, escaped and capped (see ``Excerpt``). An error built
    /// in its source (``init(_:at:in:path:message:relatedOffset:)``) cuts it only when
    /// asked: a report of many errors that no one prints never pays for escaping.
    public var excerpt: Excerpt? {
        get {
            if let givenExcerpt { return givenExcerpt }
            guard let excerptOffset, let source else { return nil }
            return source.excerpt(at: excerptOffset)
        }
        set {
            givenExcerpt = newValue
            excerptOffset = nil
        }
    }
    private var givenExcerpt: Excerpt?
    /// Where the excerpt is cut from ``source``, for an error built in its source.
    private var excerptOffset: Int?
    /// An earlier place the defect refers to, such as the first occurrence of a duplicate key.
    public var relatedOffset: Int?
    /// The broken rule's parameters (`minimum`, `maximum`, `unit`, `pattern`, `allowed`, …),
    /// beside the English ``message``: what a client acts on and an app words its own
    /// message from. Empty for errors that are not a rule's. Presentation, like the message:
    /// not part of equality.
    public var parameters: [String: RuleParameter] = [:]
    /// The call's further errors of the same stage, in the order they were found, when a
    /// decoder collects them (a document that does not fit its model in several places, under
    /// `ValidationMode.collect`): this error is the first, and the one decoding without
    /// collecting gives. Empty otherwise. Presentation, like the message: not part of equality.
    public var others: [VettedError] = []
    /// How many more were found past the mode's cap and not kept in ``others``.
    public var othersOmitted = 0
    /// The input this error was found in, kept to compute line and column lazily.
    public private(set) var source: SourceText?
    /// Line and column counted ahead, for many errors of one input at once (``located(at:)``).
    private var knownLocation: LineColumn?

    public init(
        code: Code,
        offset: Int? = nil,
        path: DocumentPath = DocumentPath(),
        message: String? = nil,
        excerpt: Excerpt? = nil,
        relatedOffset: Int? = nil,
        source: SourceText? = nil
    ) {
        self.relatedOffset = relatedOffset
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message ?? code.defaultMessage
        self.givenExcerpt = excerpt
        self.source = source
    }

    /// Builds an error located in `source`, with its excerpt taken from there.
    public init(
        _ code: Code,
        at offset: Int,
        in source: SourceText,
        path: DocumentPath = DocumentPath(),
        message: String? = nil,
        relatedOffset: Int? = nil
    ) {
        self.init(
            code: code,
            offset: offset,
            path: path,
            message: message,
            relatedOffset: relatedOffset,
            source: source
        )
        excerptOffset = offset
    }

    /// 1-based line of ``offset``, counted on demand (lines end at `\n`).
    public var line: Int? { location?.line }
    /// 1-based column of ``offset`` in bytes from the start of its line, counted on demand.
    public var column: Int? { location?.column }

    /// Line and column of ``offset``, computed when asked: the fast path never pays for it.
    public var location: LineColumn? {
        if let knownLocation { return knownLocation }
        guard let offset, let source else { return nil }
        return source.location(of: offset)
    }

    /// The same error with its line and column already counted: for a report of many errors,
    /// whose locations ``SourceText/locations(of:)`` counts in one pass.
    public func located(at location: LineColumn) -> VettedError {
        var copy = self
        copy.setLocation(location)
        return copy
    }

    /// Places an error found without a position (a schema's, about a value) at `offset` in
    /// `source`, in place: its excerpt is then cut from there when asked.
    package mutating func place(at offset: Int, in source: SourceText) {
        self.offset = offset
        self.source = source
        givenExcerpt = nil
        excerptOffset = offset
    }

    /// Gives the error its line and column counted ahead, in place (see ``located(at:)``).
    package mutating func setLocation(_ location: LineColumn) {
        knownLocation = location
    }

    /// The same error without the reference to the input, for keeping it long. Its excerpt
    /// is cut first, so it outlives the input (so are those of ``others``).
    public func droppingSource() -> VettedError {
        var copy = self
        copy.excerpt = excerpt
        copy.source = nil
        copy.others = others.map { $0.droppingSource() }
        return copy
    }

    /// This error and each of ``others``, every one without others of its own: one entry per defect.
    public var all: [VettedError] {
        var first = self
        first.others = []
        first.othersOmitted = 0
        return [first] + others
    }

    /// `code at path (line L, column C, offset O): message`.
    public var description: String {
        var where_: [String] = []
        if !path.isEmpty { where_.append("at \(path)") }
        if let location { where_.append("line \(location.line), column \(location.column)") }
        if let offset { where_.append("offset \(offset)") }
        let place = where_.isEmpty ? "" : " (" + where_.joined(separator: ", ") + ")"
        return "\(code)\(place): \(message)"
    }

    public static func == (lhs: VettedError, rhs: VettedError) -> Bool {
        lhs.code == rhs.code && lhs.offset == rhs.offset && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(offset)
        hasher.combine(path)
    }
}

/// A 1-based line and column.
public struct LineColumn: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

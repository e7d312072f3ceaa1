/// Bounds on what one untrusted document may make a parser do.
///
/// One struct serves every format. Every limit is checked *before* the memory
/// it protects is allocated, and exceeding one is a ``VettedError`` with the
/// matching `…LimitExceeded` code and the offset where it was crossed.
///
/// The defaults suit documents from the network: large enough for real
/// payloads, small enough that a hostile one cannot exhaust a server.
///
/// | limit | default | bounds |
/// |---|---|---|
/// | ``maxInputBytes`` | 64 MiB | bytes read or parsed |
/// | ``maxDepth`` | 512 | nesting of arrays/objects (never above ``depthCeiling``) |
/// | ``maxStringBytes`` | 8 MiB | UTF-8 bytes of one decoded string |
/// | ``maxMembers`` | 1,000,000 | elements of one array or members of one object |
/// | ``maxValues`` | 10,000,000 | values in the whole document |
/// | ``maxNumberLength`` | 256 | characters of one number literal |
/// | ``maxStackBytes`` | 256 KiB | stack one decoding call may use for models that recurse |
/// | ``maxAmplification`` | 100 | what an input may expand into, as a multiple of its size … |
/// | ``amplificationThreshold`` | 8 MiB | … once the expansion is past this many bytes |
/// | ``maxRecordBytes`` | 1 MiB | bytes of one record of a stream (JSON Lines, a text sequence, an array's element) |
///
/// ## Amplification
///
/// The count limits bound how many values a document has; the amplification
/// limit bounds what those values *expand into*. A binary property list (and
/// so a keyed archive) may refer to one object from many places: a 1 MB file
/// can name one 1 MiB string four thousand times, or nest shared containers
/// so that 130 bytes stand for millions of values. Every reader and printer
/// counts what it materialises or writes — each value 16 bytes, plus the
/// UTF-8 bytes of each string or key and the bytes of each data value, a
/// shared object each time it is used — and stops with
/// `amplificationLimitExceeded` at the path where the count passes
/// ``expansionAllowance(forInputBytes:)``: ``amplificationThreshold`` or
/// ``maxAmplification`` times the input's size, whichever is larger (as
/// expat's protection against "billion laughs": 100×, active past 8 MiB).
/// Ordinary documents stay far below it (a value costs at least a byte of
/// input), so the limit only ever refuses inputs built to expand.
public struct Limits: Sendable, Hashable {
    /// Largest input accepted, in bytes.
    public var maxInputBytes: Int
    /// Deepest nesting of containers. Values above ``depthCeiling`` act as ``depthCeiling``.
    public var maxDepth: Int
    /// Longest string, in UTF-8 bytes after unescaping.
    public var maxStringBytes: Int
    /// Most elements in one array or members in one object.
    public var maxMembers: Int
    /// Most values (scalars and containers) in one document.
    public var maxValues: Int
    /// Longest number literal, in bytes.
    public var maxNumberLength: Int
    /// Stack that decoding into model types (`VettedJSONDecoder`,
    /// `KeyedUnarchiver`) may use below the call, in bytes. A model's own
    /// `init(from:)` or `init(coder:)` recurses once per level of the input, so
    /// this bounds nesting by what it costs rather than by level count: past
    /// it, decoding stops with `depthLimitExceeded`. The default, half of a
    /// 512 KiB secondary thread's stack, allows about 150 levels of a
    /// recursive model in a release build. Raise it only for calls on threads
    /// known to have more stack (the main thread has 8 MiB on Linux and macOS).
    public var maxStackBytes: Int
    /// Most that an input may expand into, as a multiple of its size in bytes,
    /// once the expansion is past ``amplificationThreshold``. See *Amplification* above.
    public var maxAmplification: Int
    /// Expansion, in bytes, that is never refused for amplification, however small the input.
    public var amplificationThreshold: Int
    /// Longest record of a stream, in bytes: one line of JSON Lines, one text of a JSON
    /// text sequence, one element of a streamed array. A longer record is a
    /// `recordTooLarge` failure found without holding it: its bytes are passed over.
    /// Every other limit applies to each record as to a document of its own.
    public var maxRecordBytes: Int

    /// The hard ceiling on nesting, whatever ``maxDepth`` says.
    ///
    /// Parsing is iterative and never recurses, but a parsed value is released,
    /// compared and written by recursion in Swift; 1,024 levels stay within a
    /// 512 KiB thread stack, so no accepted document can overflow one later.
    public static let depthCeiling = 1_024

    public init(
        maxInputBytes: Int = 64 << 20,
        maxDepth: Int = 512,
        maxStringBytes: Int = 8 << 20,
        maxMembers: Int = 1_000_000,
        maxValues: Int = 10_000_000,
        maxNumberLength: Int = 256,
        maxStackBytes: Int = 256 << 10,
        maxAmplification: Int = 100,
        amplificationThreshold: Int = 8 << 20,
        maxRecordBytes: Int = 1 << 20
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxMembers = maxMembers
        self.maxValues = maxValues
        self.maxNumberLength = maxNumberLength
        self.maxStackBytes = maxStackBytes
        self.maxAmplification = maxAmplification
        self.amplificationThreshold = amplificationThreshold
        self.maxRecordBytes = maxRecordBytes
    }

    /// The defaults documented above.
    public static let `default` = Limits()

    /// No limit but the hard ones: for trusted input only.
    public static let unlimited = Limits(
        maxInputBytes: .max, maxDepth: depthCeiling, maxStringBytes: .max,
        maxMembers: .max, maxValues: .max, maxNumberLength: .max,
        maxAmplification: .max, amplificationThreshold: .max, maxRecordBytes: .max
    )

    /// The bytes an input of `inputBytes` may expand into: the larger of
    /// ``amplificationThreshold`` and ``maxAmplification`` × `inputBytes`
    /// (saturating at `Int.max`; negative settings count as zero).
    public func expansionAllowance(forInputBytes inputBytes: Int) -> Int {
        let (scaled, overflow) = Swift.max(0, maxAmplification).multipliedReportingOverflow(by: Swift.max(0, inputBytes))
        return Swift.max(Swift.max(0, amplificationThreshold), overflow ? .max : scaled)
    }

    /// ``maxDepth`` clamped to `0...depthCeiling`.
    public var effectiveMaxDepth: Int { Swift.max(0, Swift.min(maxDepth, Self.depthCeiling)) }
}

/// What to do when a JSON object or a property-list dictionary has the same key twice.
public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
    /// Fail with `duplicateKey`, naming the key and both offsets (the default).
    case reject
    /// Keep the first member; later ones are checked, then dropped.
    case keepFirst = "first"
    /// Keep the value of the last member, at the position of the first.
    case keepLast = "last"
}

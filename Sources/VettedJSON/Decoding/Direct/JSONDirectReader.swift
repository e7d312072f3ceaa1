import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// Generated decoding straight from the bytes: a `@Vetted` type's generated
// body (`init(__vetted:)`) reads its members as the parser meets them — no
// tape, no decoder — and takes an input when its shape is not in doubt: every
// token is valid (checked by the parser's own scanners, with its limits and
// duplicate-key rule), every field is present once, every value converts. A
// rule that fails is recorded as the tape path's rule engine records it
// (`DirectViolations.swift`), and decoding goes on; so is a field's value of
// the wrong kind or a missing field (`DirectFailures.swift`) — under `.collect`
// each one, kept in the tape path's order, the value skipped and the next field
// or element read (`DirectCollection.swift`) — and bytes that are not JSON or
// repeat a key are the parser's error, given by the parser resumed where the
// reader stopped (`DirectSyntax.swift`). Anything else is a miss
// (`_VettedDirectMiss`), and ``VettedJSONDecoder`` decodes the input again on the
// tape path, which gives the value or the error. So an input either decodes here
// to what the tape path would give (its value, or its errors, tested error for
// error), or is decoded by the tape path itself. Values that do not convert (a
// number out of range, a date string that does not parse, a raw value no case
// has, a date of no finite seconds) and a union's unknown tag are recorded as a
// wrong kind is (`DirectFailures.swift`). Only a miss costs one more linear pass:
// a key equal to a field's spelling as a String but not in bytes
// (`DirectKeys.swift`), a union's tag that names its `@UnknownTag` case or that is
// repeated, escaped or not a string when it is not the first member (a later tag is
// found before the payload is read: `JSONDirectReader+Unions.swift`), a field met
// twice under a key strategy or as two of its spellings. Unions are read here
// at the top, as an array's elements and in a struct's fields (alone, optional, in
// an array); under `.collect` a payload, internally or adjacently tagged, recovers
// as a struct does (`JSONDirectReader+Unions.swift`).

/// The state of one direct decode: the field source a generated body reads
/// from when it decodes straight from the bytes.
struct JSONDirectReader: _VettedArraySource {
    /// The parser, in validate mode: its string, number and literal scanners, and skipping.
    var reader: JSONReader
    /// Conversions shared with the tape path (numbers, dates, unescaping) and the options.
    let document: DecodingDocument
    /// Containers opened by generated decoding.
    var depth = 0
    let maxDepth: Int
    let maxMembers: Int
    /// The last string ``rawValueIndex(_:)`` read.
    var lastString = JSONTape.Entry(first: 0, second: 0)
    /// Each type's rules as generated decoding reads them, made once per call by its plan.
    private let types: [(type: ObjectIdentifier, info: DirectTypeInfo)]
    /// The object being read, and those it is inside (``beginObject(_:)`` pushes, ``endObject(_:)`` pops).
    var object = DirectObject(info: .none)
    var outer: [DirectObject] = []
    /// Unions being read (`JSONDirectReader+Unions.swift`).
    var unionDepth = 0
    /// The violations kept (in the tape path's order once no object is open), those past the cap,
    /// the cap, and how many of the kept ones are final.
    var violations: [VettedError] = []
    var omitted = 0
    let cap: Int
    var settled = 0
    /// The tag key of an internally tagged union just read: the payload's object is the
    /// one already open, and the key is one of its members (a repeat is a duplicate);
    /// `read`: the tag was the first member, and the reader is past it.
    var continuing: (key: Range<Int>, read: Bool)?
    /// The tag key of the internally tagged union whose payload is the object at `level`
    /// (the count of ``outer`` while it is read): a key of the payload that repeats it is a duplicate.
    var payloadTagKey: (key: Range<Int>, level: Int)?
    /// The parser's own nesting limit (deeper is its error, not a doubt).
    let parserMaxDepth: Int
    /// Whether keys are converted from snake case, or each by the `custom` strategy's closure (`DirectKeys.swift`).
    let snakeCaseKeys: Bool
    let customKeys: Bool
    /// Either of them: one test per key when neither is set.
    let convertsKeys: Bool
    /// The open containers, outermost first (`DirectSyntax.swift`): for a violation's path, and
    /// as the parser would hold them. Then the last boundary passed in the innermost, the keys
    /// of the open objects' members so far (the first `keyCount` of `keyRanges`), whether a miss
    /// was a doubt about syntax, and where the top-level value ended.
    var containers: [DirectContainer] = []
    var boundary = DirectBoundary(offset: 0, counted: 0, complete: 0)
    var keyRanges: [Range<Int>] = []
    var keyCount = 0
    var doubtsSyntax = false
    /// The value being skipped when the parser refused it: its start, and the values counted before it.
    var skippedValue: DirectBoundary?
    var rootEnd: Int?
    /// Whether structural errors are collected (`.collect`), and those recorded (`DirectCollection.swift`).
    let collects: Bool
    var structural = DirectStructuralRecord()
    /// The structural error met, if any (`DirectFailures.swift`): the answer once the rest is read.
    /// Last: it holds a `DecodingError`, whose size is known only at run time, and every stored
    /// property after it would be found through the type's metadata on each access.
    var failure: DirectFailure?

    /// Deeper documents are left to the tape path: up to this depth its stack guard never
    /// refuses a value (``StackGuard/uncheckedLevels``), so both paths take the same inputs;
    /// and the generated code's recursion stays shallow.
    static let depthCeiling = StackGuard.uncheckedLevels

    /// A reader of `source` (whose bytes `scanner` reads) by `parser`'s limits and options,
    /// its parser built in place (a parser is large: a copy costs as much as a short record).
    init(
        scanner: ByteScanner, source: SourceText, parser: JSONParser, document: DecodingDocument,
        types: [(type: ObjectIdentifier, info: DirectTypeInfo)]
    ) {
        let limits = parser.limits
        reader = JSONReader(scanner: scanner, source: source, limits: limits, options: parser.options, mode: .validate)
        // Room for a small body's keys and containers, so that the arrays do not grow one
        // reallocation at a time.
        keyRanges.reserveCapacity(16)
        containers.reserveCapacity(8)
        self.types = types
        self.document = document
        parserMaxDepth = limits.effectiveMaxDepth
        maxDepth = Swift.min(limits.effectiveMaxDepth, Self.depthCeiling)
        maxMembers = limits.maxMembers
        cap = Self.cap(of: document.engine.mode)
        if case .collect = document.engine.mode { collects = true } else { collects = false }
        if case .convertFromSnakeCase = document.keys { snakeCaseKeys = true } else { snakeCaseKeys = false }
        if case .custom = document.keys { customKeys = true } else { customKeys = false }
        convertsKeys = snakeCaseKeys || customKeys
    }

    /// This reader, set for the next record of a stream as a new reader of it would be: the
    /// constants (limits, options, the plan's types, the document) are the stream's; every
    /// stored `var` is set here, the arrays keeping their capacity (each bounded by one
    /// record). `ReaderRearmTests` compares a re-armed reader with a new one, property by
    /// property, so that a new property cannot be forgotten.
    mutating func rearm(scanner: ByteScanner, source: SourceText) {
        reader.rearm(scanner: scanner, source: source)
        depth = 0
        lastString = JSONTape.Entry(first: 0, second: 0)
        object = DirectObject(info: .none)
        if !outer.isEmpty { outer.removeAll(keepingCapacity: true) }
        unionDepth = 0
        if !violations.isEmpty { violations = [] }
        omitted = 0
        settled = 0
        continuing = nil
        payloadTagKey = nil
        if !containers.isEmpty { containers.removeAll(keepingCapacity: true) }
        boundary = DirectBoundary(offset: 0, counted: 0, complete: 0)
        if !keyRanges.isEmpty { keyRanges.removeAll(keepingCapacity: true) }
        keyCount = 0
        doubtsSyntax = false
        skippedValue = nil
        rootEnd = nil
        if !structural.isEmpty { structural = DirectStructuralRecord() }
        failure = nil
    }

    /// Lets go of the record just read: no pointer into its bytes, nor the bytes (what was
    /// found in them is set anew by the next ``rearm(scanner:source:)``).
    mutating func releaseInput() {
        reader.releaseInput()
    }

    // MARK: Tokens

    /// The byte after any whitespace (0 at the end).
    @inline(__always)
    mutating func peek() -> UInt8 {
        reader.scannerState.skipWhitespace()
        return reader.scannerState.current
    }

    @inline(__always)
    mutating func advance() { reader.scannerState.offset += 1 }

    mutating func open(_ opener: UInt8) throws(_VettedDirectMiss) {
        guard peek() == opener else { throw valueDoubt() }
        guard depth < maxDepth else {
            // Past the parser's own limit, its error; below it, the tape path reads what is this deep.
            throw depth >= parserMaxDepth ? syntaxDoubt() : _VettedDirectMiss()
        }
        let start = reader.scannerState.offset
        do { try reader.countValue(at: start) } catch { throw syntaxDoubt() }
        advance()
        depth += 1
        pushContainer(isObject: opener == UInt8(ascii: "{"), at: start)
    }

    @inline(__always)
    mutating func close() {
        advance()
        depth -= 1
        popContainer()
    }

    /// A string value's token, validated as the parser validates it.
    mutating func stringToken() throws(_VettedDirectMiss) -> JSONTape.Entry {
        guard peek() == UInt8(ascii: "\"") else { throw valueDoubt() }
        return try stringTokenAtQuote()
    }

    /// A string value's token, the scanner at its quote (counted as a value: a caller that
    /// goes back to the quote takes one off the count).
    @inline(__always)
    mutating func stringTokenAtQuote() throws(_VettedDirectMiss) -> JSONTape.Entry {
        do {
            try reader.countValue(at: reader.scannerState.offset)
            let token = try reader.scanString()
            return JSONTape.Entry(
                first: token.start,
                second: JSONTape.second(.string, flags: token.hasEscapes || token.needsRepair ? JSONTape.needsDecoding : 0, payload: token.end))
        } catch {
            throw syntaxDoubt()
        }
    }

    /// A number value's token.
    mutating func numberToken() throws(_VettedDirectMiss) -> JSONTape.Entry {
        let byte = peek()
        guard byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else { throw valueDoubt() }
        do {
            let start = reader.scannerState.offset
            try reader.countValue(at: start)
            let end = try reader.scanNumber()
            return JSONTape.Entry(first: start, second: JSONTape.second(.number, payload: end))
        } catch {
            throw syntaxDoubt()
        }
    }

    /// `null`, when it is next (and then read).
    mutating func null() throws(_VettedDirectMiss) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal(JSONReader.nullBytes)
        return true
    }

    private mutating func literal(_ bytes: [UInt8]) throws(_VettedDirectMiss) {
        do {
            let start = reader.scannerState.offset
            try reader.countValue(at: start)
            try reader.readLiteral(bytes, at: start)
        } catch {
            throw syntaxDoubt()
        }
    }

    // MARK: Values

    // Each token is read before `document` is used: a class reference held across a
    // mutating call would be retained and released around it.
    //
    // A value of another kind, or one that does not convert, is recorded as the tape path
    // reports it (`DirectFailures.swift`): for a field, and for an element of a field's array.
    mutating func string() throws(_VettedDirectMiss) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw mismatch(String.self, found: kindAhead()) }
        let token = try stringTokenAtQuote()
        return document.string(token)
    }

    mutating func integer() throws(_VettedDirectMiss) -> Int {
        if let kind = kindAhead(), kind != .number { throw mismatch(Int.self, found: kind) }
        let token = try numberToken()
        guard let value = document.integer(Int.self, token) else { throw unrepresentable(Int.self, token) }
        return value
    }

    mutating func double() throws(_VettedDirectMiss) -> Double {
        let kind = kindAhead()
        guard kind == .number else { return try doubleFromString(kind) }
        let token = try numberToken()
        guard let value = document.double(token) else { throw unrepresentable(Double.self, token) }
        return value
    }

    /// A Double field's value that is not a number: under `convertFromString`, a string naming
    /// one of its three values; anything else is a mismatch (the reader back at its start).
    @inline(never)
    private mutating func doubleFromString(_ kind: JSONTape.Kind?) throws(_VettedDirectMiss) -> Double {
        if kind == .string, case .convertFromString(let positive, let negative, let nan) = document.floats {
            let start = reader.scannerState.offset
            let counted = reader.valueCount
            let token = try stringTokenAtQuote()
            let text = document.string(token)
            if text == positive { return .infinity }
            if text == negative { return -.infinity }
            if text == nan { return .nan }
            reader.scannerState.offset = start
            reader.valueCount = counted
        }
        throw mismatch(Double.self, found: kind)
    }

    /// A null where a Bool is expected (a field or an element) is a type mismatch, as in Foundation and the tape path.
    mutating func bool() throws(_VettedDirectMiss) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"):
            try literal(JSONReader.trueBytes)
            return true
        case UInt8(ascii: "f"):
            try literal(JSONReader.falseBytes)
            return false
        default:
            let kind = kindAhead()
            throw mismatch(Bool.self, found: kind, nullIsMismatch: true)
        }
    }

    /// A date under the strategies read in place (all but `custom`, which is the tape path's).
    mutating func date() throws(_VettedDirectMiss) -> Date {
        _ = peek()
        let start = reader.scannerState.offset
        let counted = reader.valueCount
        let strategy = document.date
        let date: Date
        switch strategy.reading {
        case .number(let dates):
            date = dates.date(try double())
        case .string(let dates):
            guard peek() == UInt8(ascii: "\"") else { throw mismatch(String.self, found: kindAhead()) }
            let token = try stringTokenAtQuote()
            guard let parsed = dates.date(from: token, in: document) else {
                throw unconverted(at: token.first - 1, counted: reader.valueCount - 1, dates.unparsedWords)
            }
            date = parsed
        case .decoder:
            // Not reached: the decoder does not take this path under `custom` (its closure reads a decoder).
            throw _VettedDirectMiss()
        }
        guard date.isFiniteDate else { throw nonFiniteDate(at: start, counted: counted) }
        return date
    }

    // MARK: Objects

    /// Opens the object of a generated type.
    mutating func beginObject<G: _VettedDecodable>(_ type: G.Type) throws(_VettedDirectMiss) {
        let info = try info(for: G.self)
        if let (tagKey, read) = continuing {
            // An internally tagged union's payload: its members follow the tag, or surround it.
            continuing = nil
            outer.append(object)
            object = DirectObject(info: info)
            if read {
                object.members = 1
            } else {
                object.laterTagKey = tagKey.lowerBound
            }
            object.closesUnion = true
            object.regionStart = violations.count
            object.fieldStart = violations.count
            // A missing field is placed at the union's object, as the tape path places it.
            object.openOffset = containers.last?.start ?? 0
            payloadTagKey = (tagKey, outer.count)
            return
        }
        // Another kind of value (an array's element; a field's was checked by `read`): the tape path's mismatch.
        if let kind = kindAhead(), kind != .object { throw mismatch([String: Any].self, found: kind, expected: .object) }
        try open(UInt8(ascii: "{"))
        outer.append(object)
        object = DirectObject(info: info)
        object.openOffset = reader.scannerState.offset - 1
        object.regionStart = violations.count
        object.fieldStart = violations.count
    }

    /// A key spelled exactly `bytes`, then its colon.
    mutating func key(_ bytes: [UInt8]) throws(_VettedDirectMiss) -> Range<Int> {
        guard peek() == UInt8(ascii: "\"") else { throw _VettedDirectMiss() }
        let token: JSONReader.StringToken
        do { token = try reader.scanString() } catch { throw _VettedDirectMiss() }
        let range = token.start..<token.end
        guard !token.hasEscapes, !token.needsRepair, range.count == bytes.count, reader.scannerState.bytesEqual(range, bytes.span),
            peek() == UInt8(ascii: ":")
        else { throw _VettedDirectMiss() }
        advance()
        return range
    }

    /// The field of the next member (-1: a key that is no field, whose value
    /// ``skipValue()`` skips), or `nil` once the object is closed.
    mutating func nextField() throws(_VettedDirectMiss) -> Int? {
        endRun()
        var byte = peek()
        if byte == UInt8(ascii: "}") {
            close()
            return nil
        }
        if object.members > 0 {
            passBoundary(complete: object.members)
            guard byte == UInt8(ascii: ",") else { throw syntaxDoubt() }
            advance()
            byte = peek()
        }
        object.members += 1
        guard byte == UInt8(ascii: "\""), object.members <= maxMembers else { throw syntaxDoubt() }
        let token: JSONReader.StringToken
        do { token = try reader.scanString() } catch { throw syntaxDoubt() }
        guard peek() == UInt8(ascii: ":") else { throw syntaxDoubt() }
        advance()
        let range = token.start..<token.end
        appendKey(range)
        // The union's tag, read before the payload's members (`JSONDirectReader+Unions.swift`).
        if token.start == object.laterTagKey { return -1 }
        let scanner = reader.scannerState
        // An escaped key, or one not all ASCII, is compared as a String (canonical
        // equivalence), as the tape path and the parser compare it; so is one with an
        // underscore under `convertFromSnakeCase`, and every key under `custom`, converted
        // first (`DirectKeys.swift`).
        // (The table is read through `object` each time: a local would be retained.)
        let special =
            token.hasEscapes || token.needsRepair || token.nonASCII
            || (convertsKeys && (customKeys || scanner.firstIndex(of: UInt8(ascii: "_"), in: range) < range.upperBound))
        if !special, let spelling = object.info.table.spelling(matching: range, in: scanner, hint: object.hint) {
            return try found(spelling, keyQuote: token.quote, valueStart: scanner.offset)
        }
        if special || object.info.table.hasNonASCIIName, let spelling = try spelling(ofSpecialKey: token) {
            return try found(spelling, keyQuote: token.quote, valueStart: scanner.offset)
        }
        // Keys that are no field: a repeat of one is the parser's duplicate. A few are compared
        // pairwise; past them, as Strings in a hashed set (`DirectKeys.swift`).
        guard object.unknown.count < DirectObject.unknownKeyLimit else {
            try recordManyUnknown(token)
            return -1
        }
        if special || object.unknownNeedsString {
            try recordSpecialUnknown(token)
            return -1
        }
        for other in object.unknown where scanner.bytesEqual(other, range) { throw duplicateDoubt() }
        if let tag = payloadTagKey, tag.level == outer.count, scanner.bytesEqual(tag.key, range) { throw _VettedDirectMiss() }
        object.unknown.append(range)
        return -1
    }

    /// The field of the member whose key is `spelling`: marked as met (a field met before is
    /// a repeat, `repeatedField`), and where its key and value are.
    @inline(__always)
    private mutating func found(_ spelling: Int, keyQuote: Int, valueStart: Int) throws(_VettedDirectMiss) -> Int {
        let hasAliases = object.info.table.hasAliases
        let field = hasAliases ? object.info.table.field(ofSpelling: spelling) : spelling
        let bit: UInt64 = 1 << UInt64(field)
        guard object.seen & bit == 0 else { throw repeatedField(spelling) }
        object.seen |= bit
        if hasAliases && spelling < 64 { object.spellingsSeen |= 1 << UInt64(spelling) }
        object.hint = spelling + 1
        object.field = field
        object.spelling = spelling
        object.keyStart = keyQuote
        object.valueStart = valueStart
        return field
    }

    /// Every field this source offers is a member of the object.
    func isAbsent(_ field: Int) -> Bool { false }

    /// A default that fails its rules: the tape path reports the declaration error.
    mutating func checkDefault<Value>(_ value: Value, _ field: Int) throws(_VettedDirectMiss) {
        let checks = object.info.checks
        guard checks.indices.contains(field) else { return }
        try checks[field].forEachFailure(of: value) { _, _ throws(_VettedDirectMiss) in throw _VettedDirectMiss() }
    }

    /// Puts the object's violations in declaration order, runs the type's relations on the
    /// values `value` gives for their fields, and goes back to the object this one is in.
    mutating func endObject(_ value: (Int) -> Any?) throws(_VettedDirectMiss) {
        orderRuns()
        // Each relation's own pair check, the one `RelationCheck.outcome(_:)` calls for two fields,
        // called here with no `RelationCheck` copied per object (that cost 590 instructions a listing).
        for relation in object.info.relations {
            guard let first = value(relation.first), let second = value(relation.second) else { throw _VettedDirectMiss() }
            switch relation.check(first, second) {
            case .passed: continue
            case .violated(let violation): try violated(violation, relation: relation.key)
            case .wrongType: throw _VettedDirectMiss()
            }
        }
        object = outer.popLast() ?? DirectObject(info: .none)
        settleClosedObject()
    }

    /// The field's rules on its value: a violation is recorded, a rule of another type is a miss.
    @inline(__always)
    mutating func check<Value>(_ value: Value, _ field: Int) throws(_VettedDirectMiss) {
        let checks = object.info.checks
        guard checks.indices.contains(field) else { return }
        try checks[field].forEachFailure(of: value) { _, outcome throws(_VettedDirectMiss) in
            guard let violation = outcome.violation else { throw _VettedDirectMiss() }
            try violated(violation)
        }
    }

    // MARK: Fields

    /// The field's rules on its value when the caller knows them typed (`typed`: see
    /// ``DirectTypeInfo``), called directly; otherwise through ``check(_:_:_:)``.
    @inline(__always)
    private mutating func check<Value>(_ value: Value, typed: [[Rule<Value>]?], _ field: Int) throws(_VettedDirectMiss) {
        guard typed.indices.contains(field), let rules = typed[field] else { return try check(value, field) }
        for rule in rules {
            if let violation = rule.check(value) { try violated(violation) }
        }
    }

    mutating func read(_ type: String.Type, _ field: Int) throws(_VettedDirectMiss) -> String {
        let value = try string()
        try check(value, typed: object.info.stringRules, field)
        return value
    }

    mutating func read(_ type: Int.Type, _ field: Int) throws(_VettedDirectMiss) -> Int {
        let value = try integer()
        try check(value, typed: object.info.intRules, field)
        return value
    }

    mutating func read(_ type: Double.Type, _ field: Int) throws(_VettedDirectMiss) -> Double {
        let value = try double()
        try check(value, field)
        return value
    }

    mutating func read(_ type: Bool.Type, _ field: Int) throws(_VettedDirectMiss) -> Bool {
        // As in Foundation, a null where a Bool is expected is a type mismatch.
        let value = try bool()
        try check(value, field)
        return value
    }

    mutating func read(_ type: Date.Type, _ field: Int) throws(_VettedDirectMiss) -> Date {
        let value = try date()
        try check(value, field)
        return value
    }

    mutating func read<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> E {
        let value = try stringCase(E.self)
        try check(value, field)
        return value
    }

    mutating func read<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> E {
        let value = try intCase(E.self)
        try check(value, field)
        return value
    }

    mutating func read<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws(_VettedDirectMiss) -> G {
        if let kind = kindAhead(), kind != .object { throw mismatch([String: Any].self, found: kind, expected: .object) }
        let value = try generated(G.self)
        try check(value, field)
        return value
    }

    /// An optional field: `nil` for null, unchecked (as `decodeIfPresent`); an absent one stays `nil` in the generated code.
    mutating func readIfPresent(_ type: String.Type, _ field: Int) throws(_VettedDirectMiss) -> String? {
        try null() ? nil : try read(String.self, field)
    }

    mutating func readIfPresent(_ type: Int.Type, _ field: Int) throws(_VettedDirectMiss) -> Int? {
        try null() ? nil : try read(Int.self, field)
    }

    mutating func readIfPresent(_ type: Double.Type, _ field: Int) throws(_VettedDirectMiss) -> Double? {
        try null() ? nil : try read(Double.self, field)
    }

    mutating func readIfPresent(_ type: Bool.Type, _ field: Int) throws(_VettedDirectMiss) -> Bool? {
        try null() ? nil : try read(Bool.self, field)
    }

    mutating func readIfPresent(_ type: Date.Type, _ field: Int) throws(_VettedDirectMiss) -> Date? {
        try null() ? nil : try read(Date.self, field)
    }

    mutating func readIfPresent<E: _VettedStringEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> E? {
        try null() ? nil : try read(E.self, field)
    }

    mutating func readIfPresent<E: _VettedIntEnum>(_ type: E.Type, _ field: Int) throws(_VettedDirectMiss) -> E? {
        try null() ? nil : try read(E.self, field)
    }

    mutating func readIfPresent<G: _VettedDecodable>(_ type: G.Type, _ field: Int) throws(_VettedDirectMiss) -> G? {
        try null() ? nil : try read(G.self, field)
    }

    // MARK: Types

    /// The type's information, made by the call's plan for every type the document's type reaches.
    private func info<G: _VettedDecodable>(for type: G.Type) throws(_VettedDirectMiss) -> DirectTypeInfo {
        let id = ObjectIdentifier(type)
        for entry in types where entry.type == id { return entry.info }
        throw _VettedDirectMiss()
    }
}

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
@_spi(Scanning) public import VettedCore

/// Reads binary (`bplist00`) and XML property lists into ``PlistValue``,
/// or fails with a located ``VettedError``. Never crashes, never recurses,
/// and holds every document to ``Limits``.
///
/// ```swift
/// let value = try PlistParser().parse(data)     // format detected from the first bytes
/// ```
public struct PlistParser: Sendable {
    public enum Format: String, Sendable, Hashable, CaseIterable {
        case binary
        case xml
    }

    public var limits: Limits
    /// A dictionary with the same key twice: rejected with `duplicateKey` by
    /// default (Foundation keeps one silently); or the first or last kept.
    public var duplicateKeys: DuplicateKeyPolicy

    public init(limits: Limits = .default, duplicateKeys: DuplicateKeyPolicy = .reject) {
        self.limits = limits
        self.duplicateKeys = duplicateKeys
    }

    /// The format the bytes announce: `bplist` → binary; `<` (after an
    /// optional BOM and whitespace) → XML; else `nil`.
    public static func format(of source: SourceText) -> Format? {
        source.withScanner { scanner in
            if scanner.byte(at: 0) == UInt8(ascii: "b"), scanner.bigEndianInteger(at: 0, size: 6) == 0x62_706C_6973_74 { return .binary }
            var index = 0
            if scanner.byte(at: 0) == 0xEF, scanner.byte(at: 1) == 0xBB, scanner.byte(at: 2) == 0xBF { index = 3 }
            while index < scanner.count, [0x20, 0x09, 0x0A, 0x0D].contains(scanner.byte(at: index)) { index += 1 }
            return scanner.byte(at: index) == UInt8(ascii: "<") ? .xml : nil
        }
    }

    /// Parses either format, detected from the first bytes.
    ///
    /// - Throws: `VettedError`, located, for an unknown format, every defect and every limit (`amplificationLimitExceeded` included).
    public func parse(_ source: SourceText) throws(VettedError) -> PlistValue {
        guard let format = Self.format(of: source) else {
            throw VettedError(.unknownPlistFormat, at: 0, in: source, message: "not a property list: expected bplist00 or XML")
        }
        return try parse(source, as: format)
    }

    /// Parses `data`, binary or XML.
    ///
    /// - Throws: `VettedError`: an unknown format, syntax, the limits.
    public func parse(_ data: Data) throws(VettedError) -> PlistValue { try parse(SourceText(data)) }
    /// Parses `bytes`, binary or XML.
    ///
    /// - Throws: `VettedError`: an unknown format, syntax, the limits.
    public func parse(_ bytes: [UInt8]) throws(VettedError) -> PlistValue { try parse(SourceText(bytes)) }

    /// Parses the given format only.
    ///
    /// - Throws: `VettedError`, located, for every defect and every limit.
    public func parse(_ source: SourceText, as format: Format) throws(VettedError) -> PlistValue {
        try checkSize(source)
        let result = source.withScanner { scanner -> Result<PlistValue, VettedError> in
            switch format {
            case .binary:
                return Result { () throws(VettedError) in
                    var reader = try binaryReader(scanner, source)
                    return try reader.read()
                }
            case .xml:
                var reader = XMLPlistReader(scanner: scanner, source: source, limits: limits, duplicateKeys: duplicateKeys)
                return Result { () throws(VettedError) in try reader.read() }
            }
        }
        return try result.get()
    }

    /// Where the value at `path` sits (or the deepest container on the way
    /// that holds it), for a structural error's place: a binary plist's object
    /// found by walking the graph, an XML element's tag found by reading the
    /// document again. Asked once per failed decode call.
    func offset(of path: [(key: String, index: Int?)], in source: SourceText, as format: Format) -> Int? {
        source.withScanner { scanner -> Int? in
            switch format {
            case .binary:
                guard var reader = try? binaryReader(scanner, source) else { return nil }
                return reader.offset(at: path)
            case .xml:
                var reader = XMLPlistReader(scanner: scanner, source: source, limits: limits, duplicateKeys: duplicateKeys)
                reader.sought = path
                _ = try? reader.read()
                return reader.soughtOffset
            }
        }
    }

    /// A reader for `bplist00` input (the only binary version read).
    private func binaryReader(_ scanner: ByteScanner, _ source: SourceText) throws(VettedError) -> BinaryPlistReader {
        guard scanner.bigEndianInteger(at: 0, size: 8) == 0x6270_6C69_7374_3030 else {
            throw VettedError(.unknownPlistFormat, at: 0, in: source, message: "only bplist00 binary property lists are read")
        }
        return BinaryPlistReader(scanner: scanner, source: source, limits: limits, duplicateKeys: duplicateKeys)
    }

    private func checkSize(_ source: SourceText) throws(VettedError) {
        guard source.count <= limits.maxInputBytes else {
            throw VettedError(
                .inputSizeLimitExceeded, at: Swift.max(0, limits.maxInputBytes), in: source,
                message: "input is \(source.count) bytes; the limit is \(limits.maxInputBytes)")
        }
    }

    /// What ``streamingTopArray(_:_:)`` did.
    enum Streamed<R> {
        /// The top object is an array: what `body` returned.
        case streamed(R)
        /// Anything else: the whole value, read as ``parse(_:as:)`` reads it.
        case whole(PlistValue)
    }

    /// A binary plist whose top object is an array is read one element at a
    /// time: `body` gets the count and a function that reads element `i` (each
    /// element's tree only when asked for, with every check of ``parse(_:as:)``),
    /// so the document's values are never all alive at once. Any other input is
    /// read whole. Errors of the reader are thrown as ``PlistReadFailure``; what
    /// `body` throws passes through as it is.
    func streamingTopArray<R>(
        _ source: SourceText, _ body: (_ count: Int, _ element: (Int) throws -> PlistValue) throws -> R
    ) throws -> Streamed<R> {
        do { try checkSize(source) } catch { throw PlistReadFailure(error: error) }
        let outcome = source.withScanner { scanner -> Result<Streamed<R>, any Error> in
            Result {
                var reader: BinaryPlistReader
                do throws(VettedError) { reader = try binaryReader(scanner, source) } catch { throw PlistReadFailure(error: error) }
                func reading<T>(_ step: (inout BinaryPlistReader) throws(VettedError) -> T) throws -> T {
                    do { return try step(&reader) } catch { throw PlistReadFailure(error: error) }
                }
                try reading { reader throws(VettedError) in try reader.prepare() }
                guard let count = try reading({ reader throws(VettedError) in try reader.openTopArray() }) else {
                    return .whole(try reading { reader throws(VettedError) in try reader.readPrepared() })
                }
                return .streamed(try body(count) { index in try reading { reader throws(VettedError) in try reader.element(index) } })
            }
        }
        return try outcome.get()
    }
}

/// A defect of the input found by the reader while a decoder streams it
/// (``PlistParser/streamingTopArray(_:_:)``), told apart from the decoder's own errors.
struct PlistReadFailure: Error {
    let error: VettedError
}

@_spi(Scanning) import VettedCore

/// What a stream's records share: one byte reader, made with the stream and re-armed for
/// each record (``JSONDirectReader/rearm(scanner:source:)``: its arrays keep their capacity,
/// each bounded by one record), and its document. Between records the reader holds no
/// pointer into a record's bytes, nor the bytes.
struct StreamByteReader {
    var reader: JSONDirectReader
    /// The byte reader's document (``DecodingDocument/init(directReadingUnder:duplicateKeys:)``):
    /// it holds the stream's options, and no record's state.
    let document: DecodingDocument

    /// The reader of a stream's records under `plan` (its types; none for a plan that reads the tape).
    init(plan: DecodePlan, parser: JSONParser, options: VettedJSONDecoder.Options) {
        document = DecodingDocument(directReadingUnder: options, duplicateKeys: parser.options.duplicateKeys)
        reader = JSONDirectReader(scanner: .empty, source: SourceText([]), parser: parser, document: document, types: plan.reachedTypes)
    }
}

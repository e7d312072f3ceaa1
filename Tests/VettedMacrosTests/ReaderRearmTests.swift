import Foundation
import Testing
@_spi(Scanning) import VettedCore
@testable import VettedJSON
import VettedMacros

// A stream's records are read by one byte reader, re-armed for each record
// (`JSONDirectReader.rearm(scanner:source:)`). Re-armed after any record — a value,
// violations, a wrong kind, a missing field, bytes that are not JSON — it must be, property
// by property, the reader a new one of the next record would be: nothing of one record may
// reach the next. The caches are the only properties kept on purpose (a cache gives the
// string its bytes make, whatever input they are in). A stored property added to either
// reader and not set by `rearm` shows here as soon as some record leaves it changed.

@Suite struct ReaderRearmTests {
    /// Kept across records on purpose.
    static let kept: Set<String> = ["shapes", "stringCache"]

    /// Every stored property of `value`, nested values property by property; objects by identity.
    static func describe(_ value: Any, label: String = "") -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class {
            return "\(label)=object(\(ObjectIdentifier(value as AnyObject)))"
        }
        if mirror.children.isEmpty { return "\(label)=\(String(reflecting: value))" }
        let inner = mirror.children.compactMap { child -> String? in
            let name = child.label ?? "_"
            guard !kept.contains(name) else { return nil }
            return describe(child.value, label: name)
        }
        return "\(label){\(inner.joined(separator: ","))}"
    }

    /// After each document of the direct corpus (and each of its mutations), the stream's
    /// reader re-armed for a clean record equals a new reader of that record.
    @Test(arguments: [ValidationMode.failFast, .collect(upTo: 4)])
    func aReArmedReaderIsANewReader(mode: ValidationMode) throws {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = mode
        let options = decoder.options.current
        let parser = VettedJSONDecoder.parser(options)
        let plan = decoder.plan(for: DirectItem.self, options: options)
        #expect(plan.readsBytes)
        var stream = StreamByteReader(plan: plan, parser: parser, options: options)
        let date = "1533390784.5"
        let documents = GenCorpus.documents(base: GenCorpus.directBase(date: date), replacements: DirectDecodingDifferentialTests.replacements)
        let clean = SourceText(GenCorpus.directBase(date: date).text)
        var differing: [String] = []
        for document in documents {
            _ = try? decoder.decodeRecord(DirectItem.self, from: SourceText(document), parser: parser, options: options, plan: plan, stream: &stream)
            clean.withScanner { scanner in
                stream.reader.rearm(scanner: scanner, source: clean)
                let fresh = JSONDirectReader(
                    scanner: scanner, source: clean, parser: parser, document: stream.document, types: plan.reachedTypes)
                if Self.describe(stream.reader) != Self.describe(fresh) { differing.append(document) }
                stream.reader.releaseInput()
            }
        }
        #expect(documents.count > 100)
        let count = differing.count
        #expect(count == 0, "re-armed after \(count) of \(documents.count) documents, the reader differs; the first: \(differing.first ?? "")")
    }

    /// The check itself sees a property left over: a reader that has read a document with
    /// a violation differs from a new one until it is re-armed.
    @Test func theComparisonSeesWhatARecordLeaves() throws {
        let decoder = VettedJSONDecoder()
        let options = decoder.options.current
        let parser = VettedJSONDecoder.parser(options)
        let plan = decoder.plan(for: GenChild.self, options: options)
        var stream = StreamByteReader(plan: plan, parser: parser, options: options)
        let failing = SourceText(#"{"name":" ","start":2,"end":1}"#)
        #expect(throws: ValidationErrors.self) {
            try decoder.decodeRecord(GenChild.self, from: failing, parser: parser, options: options, plan: plan, stream: &stream)
        }
        let clean = SourceText(#"{"name":"a","start":1,"end":2}"#)
        clean.withScanner { scanner in
            // Its parser set for the new bytes, but not the reader: its violations are the last record's.
            stream.reader.reader.rearm(scanner: scanner, source: clean)
            let fresh = JSONDirectReader(scanner: scanner, source: clean, parser: parser, document: stream.document, types: plan.reachedTypes)
            #expect(Self.describe(stream.reader) != Self.describe(fresh))
            stream.reader.rearm(scanner: scanner, source: clean)
            #expect(Self.describe(stream.reader) == Self.describe(fresh))
            stream.reader.releaseInput()
        }
    }
}

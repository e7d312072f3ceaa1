import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedRules
import VettedTestSupport

// A stream's record gives what decoding that record alone gives — value for value, error
// for error (code, path under the record's index, offset, message, in the same order) — on
// every document of the generated corpora, under every decoder option, in every framing,
// cut into chunks at random places.

extension CountingChunks {
    /// `text` cut at random places (chunks of 1 to 64 bytes).
    convenience init(_ text: String, generator: inout SeededGenerator) {
        let bytes = Array(text.utf8)
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = Swift.min(bytes.count, start + 1 + generator.below(64))
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        self.init(chunks)
    }
}

@Suite struct StreamDifferentialTests {
    static let framings: [VettedJSONDecoder.StreamFraming] = [.jsonLines, .jsonTextSequence, .array]

    /// The record as the framing writes it, and the bytes the stream decodes for it.
    static func record(_ document: String, _ framing: VettedJSONDecoder.StreamFraming) -> (written: String, decoded: String) {
        switch framing {
        case .jsonLines: (document + "\n", document)
        case .jsonTextSequence: ("\u{1E}" + document + "\n", document + "\n")
        case .array: (document, document)
        }
    }

    /// Whether `document` can stand as a record of `framing` (a line holds no line feed, a
    /// text no RS; an array's element must be well-formed for the array to go on).
    static func fits(_ document: String, _ framing: VettedJSONDecoder.StreamFraming) -> Bool {
        guard !document.isEmpty else { return false }
        switch framing {
        case .jsonLines: return !document.contains("\n") && !document.contains("\r")
        case .jsonTextSequence: return !document.contains("\u{1E}")
        case .array:
            var parser = JSONParser()
            parser.options.duplicateKeys = .keepLast
            return (try? parser.parse(Data(document.utf8))) != nil
        }
    }

    /// Streams `documents` in each framing and compares every element with the record decoded alone.
    func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ documents: [String], _ options: DecoderOptions, generator: inout SeededGenerator
    ) async -> Int {
        let decoder = options.decoder(generated: true)
        let trimmed = documents.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        var failures = 0
        for framing in Self.framings where failures < 5 {
            let records = trimmed.filter { Self.fits($0, framing) }
            let parts = records.map { Self.record($0, framing) }
            let text = framing == .array ? "[" + parts.map(\.written).joined(separator: ",\n") + "]" : parts.map(\.written).joined()
            var seen = 0
            do {
                let chunks = CountingChunks(text, generator: &generator)
                for try await element in decoder.elements(of: T.self, from: chunks, framing: framing, onError: .skip) {
                    guard element.index == seen, seen < parts.count else {
                        Issue.record("\(T.self) \(framing) under \(options): element \(element.index) after \(seen) of \(parts.count)")
                        failures += 1
                        break
                    }
                    let alone = Outcome { () throws -> T in
                        do {
                            return try decoder.decode(T.self, from: Data(parts[seen].decoded.utf8))
                        } catch {
                            throw RecordErrors.prefixing(error, index: seen)
                        }
                    }
                    let streamed = Outcome { try element.get() }
                    if streamed != alone {
                        Issue.record("\(T.self) \(framing) under \(options), record \(seen):\n  \(parts[seen].decoded)\n  streamed: \(streamed)\n  alone: \(alone)")
                        failures += 1
                    }
                    seen += 1
                }
            } catch {
                Issue.record("\(T.self) \(framing) under \(options): the stream ended with \(error)")
                failures += 1
            }
            if seen != parts.count {
                Issue.record("\(T.self) \(framing) under \(options): \(seen) of \(parts.count) records")
                failures += 1
            }
        }
        return failures
    }

    /// Each document alone as an array's one element: that element, decoded alone; or, where
    /// the document breaks the array, a located end — never a value the array decoder refuses.
    func compareAlone<T: Decodable & Equatable>(_ type: T.Type, _ documents: [String], _ options: DecoderOptions) async -> Int {
        let decoder = options.decoder(generated: true)
        var failures = 0
        for document in documents.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where failures < 5 {
            let outcome = await StreamOutcome.of(T.self, "[" + document + "]", framing: .array, chunk: 3, decoder: decoder)
            if let ending = outcome.ending {
                let located = (ending as? DecodingError)?.vettedError
                let whole = Outcome { try decoder.decode([T].self, from: Data(("[" + document + "]").utf8)) }
                if located?.offset == nil || { if case .value = whole { true } else { false } }() {
                    Issue.record("\(T.self) [\(document)]: ended with \(ending), whole array: \(whole)")
                    failures += 1
                }
                continue
            }
            let alone = Outcome { () throws -> T in
                do { return try decoder.decode(T.self, from: Data(document.utf8)) } catch { throw RecordErrors.prefixing(error, index: 0) }
            }
            if outcome.elements.count != 1 || outcome.elements[0].outcome != alone {
                Issue.record("\(T.self) [\(document)] under \(options):\n  streamed: \(outcome.elements.map(\.outcome))\n  alone: \(alone)")
                failures += 1
            }
        }
        return failures
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func everyRecordOfTheCorporaGivesWhatItGivesAlone(_ options: DecoderOptions) async {
        let seed = SeededGenerator.seed(for: "StreamDifferentialTests.everyRecordOfTheCorporaGivesWhatItGivesAlone(\(options))")
        var generator = SeededGenerator(seed: seed)
        let date = GeneratedDecodingDifferentialTests.dateText(options)
        let direct = GenCorpus.documents(base: GenCorpus.directBase(date: date), replacements: DirectDecodingDifferentialTests.replacements)
        var failures = await compare(DirectItem.self, direct, options, generator: &generator)
        failures += await compare(GenItem.self, GenCorpus.documents(date: date), options, generator: &generator)
        failures += await compare(Page.self, OneAnswerCorpus.documents(OneAnswerCorpus.page, spellings: OneAnswerCorpus.pageSpellings), options, generator: &generator)
        failures += await compare(
            AliasedEvent.self, OneAnswerCorpus.documents(OneAnswerCorpus.event, spellings: OneAnswerCorpus.eventSpellings), options, generator: &generator)
        failures += await compare(
            LongDefault.self, OneAnswerCorpus.documents(OneAnswerCorpus.longDefault, spellings: OneAnswerCorpus.longDefaultSpellings), options,
            generator: &generator)
        #expect(failures == 0)
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func eachDocumentAloneInAnArray(_ options: DecoderOptions) async {
        let date = GeneratedDecodingDifferentialTests.dateText(options)
        var failures = await compareAlone(
            DirectItem.self, GenCorpus.documents(base: GenCorpus.directBase(date: date), replacements: DirectDecodingDifferentialTests.replacements), options)
        failures += await compareAlone(Page.self, OneAnswerCorpus.documents(OneAnswerCorpus.page, spellings: OneAnswerCorpus.pageSpellings), options)
        #expect(failures == 0)
    }
}

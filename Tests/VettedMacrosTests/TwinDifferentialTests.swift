import Foundation
import Testing
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedTestSupport

// The one reader against hand-written twins (TwinCorpus.swift) on every mutation of the direct
// and generated corpora, under every option of the differential, and on seeded pairs.

@Suite struct TwinDifferentialTests {
    func compare<Model: Codable, Twin: Codable>(_ model: Model.Type, _ twin: Twin.Type, _ document: String, _ options: DecoderOptions) -> Bool {
        guard let difference = twinDifference(Model.self, Twin.self, Array(document.utf8), options) else { return true }
        Issue.record("\(document)\n\(difference)")
        return false
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func theDirectCorpusGivesTheTwinsAnswer(_ options: DecoderOptions) {
        let base = GenCorpus.directBase(date: GeneratedDecodingDifferentialTests.dateText(options))
        var failures = 0
        for document in GenCorpus.documents(base: base, replacements: DirectDecodingDifferentialTests.replacements) where failures < 5 {
            if !compare(DirectItem.self, DirectItemTwin.self, document, options) { failures += 1 }
            if !compare([DirectItem].self, [DirectItemTwin].self, "[\(document), \(document)]", options) { failures += 1 }
        }
    }
}

extension TwinDifferentialTests {
    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func theGeneratedCorpusGivesTheTwinsAnswer(_ options: DecoderOptions) {
        var failures = 0
        for document in GenCorpus.documents(date: GeneratedDecodingDifferentialTests.dateText(options)) where failures < 5 {
            if !compare(GenItem.self, GenItemTwin.self, document, options) { failures += 1 }
            if !compare([GenItem].self, [GenItemTwin].self, "[\(document), \(document)]", options) { failures += 1 }
        }
    }

    /// Seeded pairs of mutations (errors that compete for first place), both corpora.
    @Test func pairsOfMutationsGiveTheTwinsAnswer() {
        let seed = SeededGenerator.seed(for: "TwinDifferentialTests.pairsOfMutationsGiveTheTwinsAnswer")
        var generator = SeededGenerator(seed: seed)
        var failures = 0
        for options in GeneratedDecodingDifferentialTests.configurations {
            let date = GeneratedDecodingDifferentialTests.dateText(options)
            let direct = GenCorpus.directBase(date: date)
            for document in GenCorpus.pairs(base: direct, replacements: DirectDecodingDifferentialTests.replacements, count: 100, generator: &generator)
            where failures < 5 {
                if !compare([DirectItem].self, [DirectItemTwin].self, document, options) { failures += 1 }
            }
            for document in GenCorpus.pairs(date: date, count: 100, generator: &generator) where failures < 5 {
                if !compare([GenItem].self, [GenItemTwin].self, document, options) { failures += 1 }
            }
        }
    }
}

// The sample of the article *Rules the compiler checks*, compiled and run (see DocSampleTests).
import Foundation
import Testing
// sample: CompilerCheckedRules.md#1
import VettedMacros

// end sample

/// The README's macro sample in a namespace of its own (ReadmeSamples.swift has its `Listing`).
enum ReadmeMacro {
    enum Tag: String, Codable { case music, books }

    // sample: CompilerCheckedRules.md#1
    @Vetted struct Listing: Codable {
        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.url(URLPolicy(hosts: [.exact("example.com")], maximumLength: 50))) var url: String
        @Check(.count(1...10), .unique) var tags: [Tag]
        var created: Date
        @Check(.notBefore(\Listing.created)) var lastUpdated: Date
    }
    // end sample
}

@Suite struct ReadmeMacroSampleTests {
    @Test func validateAValueMadeInCode() throws {
        let listing = ReadmeMacro.Listing(
            id: 1, url: "https://example.com/1", tags: [.music, .music], created: Date(timeIntervalSince1970: 10),
            lastUpdated: Date(timeIntervalSince1970: 5))
        let errors = #expect(throws: ValidationErrors.self) {
            // sample: CompilerCheckedRules.md#1
            try listing.validate()   // a value made in code: the same rules, codes and paths
            // end sample
        }
        #expect(errors?.errors.map { "\($0.path) \($0.code)" } == ["$.tags notUnique", "$.lastUpdated relationViolated"])
    }
}

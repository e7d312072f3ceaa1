import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import VettedMacrosPlugin

/// What `@Vetted` and `@Check` write, and what they refuse, checked on source text.
@Suite struct ExpansionTests {
    static let macros: [String: MacroSpec] = [
        "Vetted": MacroSpec(type: VettedMacro.self, conformances: ["VettedModel"]),
        "Check": MacroSpec(type: CheckMacro.self),
    ]

    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: Self.macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test func theTalksListing() {
        expand(
            #"""
            @Vetted struct Listing: Codable {
                @Check(.range(1...Int(Int32.max))) var id: Int
                @Check(.length(1...200)) var name: String
                @Check(.count(1...10), .unique) var tags: [Tag]
                var created: Date
                @Check(.notBefore(\Listing.created)) var lastUpdated: Date
                enum CodingKeys: String, CodingKey { case id, name, tags, created, lastUpdated = "last_updated" }
            }
            """#,
            #"""
            struct Listing: Codable {
                var id: Int
                var name: String
                var tags: [Tag]
                var created: Date
                var lastUpdated: Date
                enum CodingKeys: String, CodingKey { case id, name, tags, created, lastUpdated = "last_updated" }
            }
            """#)
    }
}

import Foundation
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import VettedMacrosPlugin

/// What `@Vetted` writes for tagged unions, defaults and aliases, and what it refuses, on source text.
@Suite struct ShapeExpansionTests {
    static let macros: [String: MacroSpec] = [
        "Vetted": MacroSpec(type: VettedMacro.self, conformances: ["VettedModel", "_VettedDecodable", "_VettedUnion"]),
        "Check": MacroSpec(type: CheckMacro.self),
        "Default": MacroSpec(type: ShapeMacro.self),
        "Alias": MacroSpec(type: ShapeMacro.self),
        "Tag": MacroSpec(type: CaseTagMacro.self),
        "UnknownTag": MacroSpec(type: CaseTagMacro.self),
    ]

    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: Self.macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test func anInternallyTaggedUnion() {
        expand(
            #"""
            @Vetted(tag: "type") enum Event: Codable {
                case created(Created)
                @Tag("listing.sold") case sold(Sold)
                @UnknownTag case other(String)
            }
            """#,
            #"""
            PLACEHOLDER
            """#)
    }

    @Test func anAdjacentlyTaggedUnion() {
        expand(
            #"""
            @Vetted(tag: "kind", content: "data") public enum Event: Decodable {
                case created(Created)
            }
            """#,
            #"""
            PLACEHOLDER
            """#)
    }

    @Test func defaultsAndAliases() {
        expand(
            #"""
            @Vetted struct Page: Codable {
                @Check(.range(1...100)) @Default(20) var limit: Int
                @Alias("productId") var id: Int
                var note: String?
            }
            """#,
            #"""
            PLACEHOLDER
            """#)
    }

    @Test func refusesMisplacedShapes() {
        expand(
            #"""
            @Vetted struct T: Codable {
                @Default(1) var a: Int?
            }
            """#,
            #"""
            struct T: Codable {
                var a: Int?
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'a' is optional, so an absent key already gives nil: declare it non-optional to give it a default, or drop @Default",
                    line: 2, column: 5)
            ])
        expand(
            #"""
            @Vetted struct T: Codable {
                @Alias("b") var a: Int
                var b: Int
            }
            """#,
            #"""
            struct T: Codable {
                var a: Int
                var b: Int
            }
            """#,
            diagnostics: [DiagnosticSpec(message: #"the key "b" already names 'b': each spelling may name one property"#, line: 2, column: 5)])
        expand(
            #"""
            struct T: Codable {
                @Default(1) var a: Int
            }
            """#,
            #"""
            struct T: Codable {
                var a: Int
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Default and @Alias are read only by @Vetted on the enclosing struct: mark it @Vetted, or they are never used", line: 2,
                    column: 5)
            ])
    }

    @Test func refusesMalformedUnions() {
        expand(
            #"""
            @Vetted(tag: "type") enum E: Codable {
                case a(A)
                @Tag("a") case b(A)
            }
            """#,
            #"""
            enum E: Codable {
                case a(A)
                case b(A)
            }
            """#,
            diagnostics: [DiagnosticSpec(message: #"the tag "a" selects both 'a' and 'b': each tag may select one case"#, line: 3, column: 5)])
        expand(
            #"""
            @Vetted(tag: "type") enum E: Codable {
                case a(A, Int)
            }
            """#,
            #"""
            enum E: Codable {
                case a(A, Int)
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "each case of a tagged union carries one @Vetted struct, its payload: 'a' does not (case a(Payload))", line: 2, column: 10)
            ])
        expand(
            #"""
            @Vetted(tag: "type", content: "type") enum E: Codable {
                case a(A)
            }
            """#,
            #"""
            enum E: Codable {
                case a(A)
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: #"a tagged union names its keys with string literals: @Vetted(tag: "type") or @Vetted(tag: "type", content: "data"), two different keys"#,
                    line: 1, column: 1)
            ])
        expand(
            #"""
            enum E {
                @Tag("x") case a
            }
            """#,
            #"""
            enum E {
                case a
            }
            """#,
            diagnostics: [DiagnosticSpec(message: "@Tag and @UnknownTag are read only by @Vetted(tag:) on the enclosing enum", line: 2, column: 5)])
    }
}

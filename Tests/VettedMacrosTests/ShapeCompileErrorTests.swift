import Foundation
import Testing
import VettedTestSupport

/// Unions, defaults and aliases the compiler refuses, as `swiftc` says it to a user.
@Suite(.enabled(if: compileToolchain != nil, "needs this build's modules, the macro plugin and swiftc"))
struct ShapeCompileErrorTests {
    func errors(_ source: String) throws -> [String] { try CompileErrorTests.errors(source) }

    @Test func aDefaultOfAnotherTypeDoesNotCompile() throws {
        #expect(try errors(#"@Vetted struct T: Codable { @Default("ten") var limit: Int }"#) == ["cannot convert return expression of type 'String' to return type 'Int'"])
    }

    @Test func aDefaultThatBreaksItsLiteralRangeDoesNotCompile() throws {
        #expect(
            try errors("@Vetted struct T: Codable { @Check(.range(1...100)) @Default(0) var limit: Int }")
                == ["the default 0 of 'limit' breaks its own rule .range(1...100): every document without the key would fail (from macro 'Vetted ')"])
        #expect(try errors("@Vetted struct T: Codable { @Check(.range(1...100)) @Default(100) var limit: Int }") == [])
    }

    /// `CodingKeys` in an extension of a type whose `init(from:)` the macro writes (defaults,
    /// aliases): refused at compile time. Before, it compiled, and `{"item_count": 11}` gave
    /// `count == 3`: the value lost and its rule never run.
    @Test func codingKeysInAnExtensionOfATypeWithDefaultsDoNotCompile() throws {
        let errors = try errors(
            """
            @Vetted struct T: Codable { @Default(3) @Check(.range(1...10)) var count: Int }
            extension T { enum CodingKeys: String, CodingKey { case count = "item_count" } }
            """)
        #expect(errors.contains("invalid redeclaration of 'CodingKeys'"), "\(errors)")
        // In the body, the macro sees them: they compile and are read.
        #expect(
            try self.errors(
                #"@Vetted struct T: Codable { @Default(3) @Check(.range(1...10)) var count: Int; enum CodingKeys: String, CodingKey { case count = "item_count" } }"#
            ) == [])
        // Without defaults or aliases, an extension's CodingKeys still work (synthesized decoding reads them).
        #expect(
            try self.errors(
                """
                @Vetted struct T: Codable { @Check(.range(1...10)) var count: Int }
                extension T { enum CodingKeys: String, CodingKey { case count = "item_count" } }
                """) == [])
    }

    @Test func misplacedDefaultsAndAliasesDoNotCompile() throws {
        #expect(
            try errors("@Vetted struct T: Codable { @Default(1) var limit: Int? }")
                == [
                    "'limit' is optional, so an absent key already gives nil: declare it non-optional to give it a default, or drop @Default (from macro 'Vetted ')"
                ])
        #expect(
            try errors(#"@Vetted struct T: Codable { @Alias("b") var a: Int; var b: Int }"#)
                == [#"the key "b" already names 'b': each spelling may name one property (from macro 'Vetted ')"#])
        #expect(
            try errors(#"@Vetted final class T: Codable { @Alias("b") var a: Int = 0 }"#)
                == [
                    "@Default and @Alias need the decoding @Vetted generates, which this type does not get (a class): they would be ignored (from macro 'Vetted ')"
                ])
        #expect(
            try errors(#"struct T: Codable { @Default(1) var a: Int }"#)
                == ["@Default and @Alias are read only by @Vetted on the enclosing struct: mark it @Vetted, or they are never used (from macro 'Default')"])
    }

    @Test func malformedUnionsDoNotCompile() throws {
        #expect(
            try errors(
                """
                @Vetted struct A: Codable { var id: Int }
                @Vetted(tag: "type") enum E: Codable { case a(A); @Tag("a") case b(A) }
                """) == [#"the tag "a" selects both 'a' and 'b': each tag may select one case (from macro 'Vetted')"#])
        #expect(
            try errors(
                """
                @Vetted struct A: Codable { var id: Int }
                @Vetted(tag: "type") enum E: Codable { case a(A, Int) }
                """) == ["each case of a tagged union carries one @Vetted struct, its payload: 'a' does not (case a(Payload)) (from macro 'Vetted')"])
        #expect(try errors(#"@Vetted(tag: "type") enum E: Codable { case a(Int) }"#).contains { $0.contains("to expected element type 'any _VettedDecodable.Type'") })
        #expect(
            try errors(
                """
                @Vetted struct A: Codable { var id: Int }
                @Vetted(tag: "type") enum E: Codable { case a(A); @UnknownTag case b(Int) }
                """) == ["one case at most is @UnknownTag, with no @Tag, carrying the unknown tag: @UnknownTag case other(String) (from macro 'Vetted')"])
        #expect(try errors(#"enum E { @Tag("x") case a }"#) == ["@Tag and @UnknownTag are read only by @Vetted(tag:) on the enclosing enum (from macro 'Tag')"])
    }

    @Test func wellFormedShapesCompile() throws {
        #expect(
            try errors(
                """
                @Vetted struct A: Codable { @Check(.range(1...5)) @Default(2) var id: Int; @Alias("n") var name: String }
                @Vetted(tag: "kind", content: "body") enum E: Codable { case a(A); @Tag("b.c") case b(A); @UnknownTag case other(String) }
                """) == [])
    }
}

import Foundation
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing
import VettedMacrosPlugin

/// What `@Vetted` and `@Check` write, and what they refuse, checked on source text.
@Suite struct ExpansionTests {
    static let macros: [String: MacroSpec] = [
        "Vetted": MacroSpec(type: VettedMacro.self, conformances: ["VettedModel", "_VettedDecodable", "_VettedStringEnum", "_VettedIntEnum"]),
        "Check": MacroSpec(type: CheckMacro.self),
    ]

    func expand(
        _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: Self.macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    func refuse(
        _ source: String, _ message: String, line: Int, column: Int, alsoFromTheCompiler: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let compiler = alsoFromTheCompiler.map { [DiagnosticSpec(message: $0, line: line, column: column)] } ?? []
        assertMacroExpansion(
            source, expandedSource: Self.stripped(source),
            diagnostics: compiler + [DiagnosticSpec(message: message, line: line, column: column)],
            macroSpecs: Self.macros
        ) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    /// The source without its `@Vetted` and `@Check(…)` attributes: what a refused declaration expands to.
    static func stripped(_ source: String) -> String {
        var lines: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = String(line)
            for attribute in [
                "@Vetted ", "@Check(.range(1...5)) ", "@Check(.notBefore(\\T.a.b)) ", "@Check() ", "@Check(.range(5...1)) ",
                "@Check(.range(-1.5 ..< -2)) ", "@Check(.pattern(\"[a-\")) ", "@Check(.count(1...3) && .each(.pattern(\"(a\"))) ",
                "@Check(.notBefore(\\T.b)) ", "@Check(.length(1...5)) ",
            ] {
                text = text.replacingOccurrences(of: attribute, with: "")
            }
            lines.append(text)
        }
        return lines.joined(separator: "\n")
    }

    @Test func theTalksListing() {
        expand(
            #"""
            @Vetted struct Listing: Codable {
                @Check(.range(1...Int(Int32.max))) var id: Int
                @Check(.length(1...200), .displaySafe()) var name: String
                @Check(.count(1...10), .unique) var tags: [Tag]
                var created: Date
                @Check(.notBefore(\Listing.created)) var lastUpdated: Date
                enum CodingKeys: String, CodingKey {
                    case id, name, tags, created, lastUpdated = "last_updated"
                }
            }
            """#,
            #"""
            struct Listing: Codable {
                var id: Int
                var name: String
                var tags: [Tag]
                var created: Date
                var lastUpdated: Date
                enum CodingKeys: String, CodingKey {
                    case id, name, tags, created, lastUpdated = "last_updated"
                }

                static let validation = VettedRules.Validation<Listing> {
                    VettedRules.Field("id", VettedRules.Rule<Int>.range(1 ... Int(Int32.max)))
                    VettedRules.Field("name", VettedRules.Rule<String>.length(1 ... 200))
                    VettedRules.Field("name", VettedRules.Rule<String>.displaySafe())
                    VettedRules.Field("tags", VettedRules.Rule<[Tag]>.count(1 ... 10))
                    VettedRules.Field("tags", VettedRules.Rule<[Tag]>.unique)
                    VettedRules.Relation("last_updated", after: "created", as: VettedMacros.__vettedRelationType(\Listing.lastUpdated, \Listing.created))
                }

                func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    visitor.visit(self.id, key: "id")
                    visitor.visit(self.name, key: "name")
                    visitor.visit(self.tags, key: "tags")
                    visitor.visit(self.created, key: "created")
                    visitor.visit(self.lastUpdated, key: "last_updated")
                }

                typealias __VettedField0 = Int

                typealias __VettedField1 = String

                typealias __VettedField2 = [Tag]

                typealias __VettedElement2 = Tag

                typealias __VettedField3 = Date

                typealias __VettedField4 = Date
            }

            extension Listing: VettedMacros.VettedModel {
            }

            extension Listing: VettedDecoding._VettedDecodable {
                static let __vettedFields = VettedDecoding._VettedFieldTable(
                    ["id", "name", "tags", "created", "last_updated"], types: [__VettedField0.self, __VettedField1.self, __VettedElement2.self, __VettedField3.self, __VettedField4.self], isArray: [false, false, true, false, false])
                init<Source: VettedDecoding._VettedFieldSource>(__vetted source: inout Source) throws {
                    try source.beginObject(Self.self)
                    var __vetted0: __VettedField0? = nil
                    var __vetted1: __VettedField1? = nil
                    var __vetted2: __VettedField2? = nil
                    var __vetted3: __VettedField3? = nil
                    var __vetted4: __VettedField4? = nil
                    var __vettedFailed = false
                    while let field = try source.nextField() {
                        do {
                            switch field {
                            case 0:
                                __vetted0 = try source.read(__VettedField0.self, 0)
                            case 1:
                                __vetted1 = try source.read(__VettedField1.self, 1)
                            case 2:
                                __vetted2 = try source.readArray(__VettedElement2.self, 2)
                            case 3:
                                __vetted3 = try source.read(__VettedField3.self, 3)
                            case 4:
                                __vetted4 = try source.read(__VettedField4.self, 4)
                            default:
                                try source.skipValue()
                            }
                        } catch {
                            try source.recover(error)
                            __vettedFailed = true
                        }
                    }
                    if __vettedFailed {
                        throw source.recorded()
                    }
                    guard let __vetted0 else {
                        throw source.missing(0)
                    }
                    guard let __vetted1 else {
                        throw source.missing(1)
                    }
                    guard let __vetted2 else {
                        throw source.missing(2)
                    }
                    guard let __vetted3 else {
                        throw source.missing(3)
                    }
                    guard let __vetted4 else {
                        throw source.missing(4)
                    }
                    try source.endObject { field -> Any? in
                        switch field {
                        case 3:
                            return __vetted3
                        case 4:
                            return __vetted4
                        default:
                            return nil
                        }
                    }
                    self.id = __vetted0
                    self.name = __vetted1
                    self.tags = __vetted2
                    self.created = __vetted3
                    self.lastUpdated = __vetted4
                }
                static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            result.append(try Self(__vetted: &source))
                        } catch {
                            try source.recover(error)
                            failed = true
                        }
                    }
                    if failed {
                        throw source.recordedElements()
                    }
                    try source.checkField(result, field)
                    return result
                }
            }
            """#)
    }

    /// Optionals decode as `decodeIfPresent` and take their wrapped type's rules; a public
    /// type gets public members; without CodingKeys in its body, a Decodable type's keys are
    /// its CodingKeys' (synthesized: the property names; or declared in an extension); constants
    /// with a value and computed properties are not fields.
    @Test func optionalsPublicTypesAndSynthesizedKeys() {
        expand(
            #"""
            @Vetted public struct Item: Decodable {
                @Check(.range(1...5)) public var count: Int?
                public var note: Optional<String>
                public let kind = "item"
                public var doubled: Int { 2 }
            }
            """#,
            #"""
            public struct Item: Decodable {
                public var count: Int?
                public var note: Optional<String>
                public let kind = "item"
                public var doubled: Int { 2 }

                public static let validation = VettedRules.Validation<Item> {
                    VettedRules.Field(CodingKeys.`count`.stringValue, VettedRules.Rule<Int>.range(1 ... 5))
                }

                public func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    visitor.visit(self.count, key: CodingKeys.`count`.stringValue)
                    visitor.visit(self.note, key: CodingKeys.`note`.stringValue)
                }

                typealias __VettedField0 = Int

                typealias __VettedField1 = String
            }

            extension Item: VettedMacros.VettedModel {
            }

            extension Item: VettedDecoding._VettedDecodable {
                public static let __vettedFields = VettedDecoding._VettedFieldTable(
                    [CodingKeys.`count`.stringValue, CodingKeys.`note`.stringValue], types: [__VettedField0.self, __VettedField1.self], isArray: [false, false], required: [false, false], optional: [true, true])
                public init<Source: VettedDecoding._VettedFieldSource>(__vetted source: inout Source) throws {
                    try source.beginObject(Self.self)
                    var __vetted0: __VettedField0? = nil
                    var __vetted1: __VettedField1? = nil
                    var __vettedFailed = false
                    while let field = try source.nextField() {
                        do {
                            switch field {
                            case 0:
                                __vetted0 = try source.readIfPresent(__VettedField0.self, 0)
                            case 1:
                                __vetted1 = try source.readIfPresent(__VettedField1.self, 1)
                            default:
                                try source.skipValue()
                            }
                        } catch {
                            try source.recover(error)
                            __vettedFailed = true
                        }
                    }
                    if __vettedFailed {
                        throw source.recorded()
                    }
                    try source.endObject { _ in
                        nil
                    }
                    self.count = __vetted0
                    self.note = __vetted1
                }
                public static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            result.append(try Self(__vetted: &source))
                        } catch {
                            try source.recover(error)
                            failed = true
                        }
                    }
                    if failed {
                        throw source.recordedElements()
                    }
                    try source.checkField(result, field)
                    return result
                }
            }
            """#)
    }

    /// An enum with String or Int raw values is read by its raw value: a throwing
    /// initializer the decoders call with the raw value they read.
    @Test func rawValueEnums() {
        expand(
            #"""
            @Vetted public enum Tag: String, Codable {
                case music, books
            }
            """#,
            #"""
            public enum Tag: String, Codable {
                case music, books
            }

            extension Tag: VettedDecoding._VettedStringEnum {
                public static let __vettedRawValueBytes = VettedDecoding._VettedRawValueBytes([Self.music.rawValue, Self.books.rawValue])
                public static func __vettedCase(_ index: Int) -> Self? {
                    switch index {
                    case 0:
                        return .music
                    case 1:
                        return .books
                    default:
                        return nil
                    }
                }
                public init(__vettedRawValue rawValue: String) throws(VettedDecoding._VettedRawValueMiss) {
                    guard let value = Self(rawValue: rawValue) else {
                        throw VettedDecoding._VettedRawValueMiss()
                    }
                    self = value
                }
                public static func __vettedArray(count: Int, _ element: (Int) throws -> Self) rethrows -> [Self] {
                    var result: [Self] = []
                    result.reserveCapacity(count)
                    for index in 0 ..< count {
                        result.append(try element(index))
                    }
                    return result
                }
                public static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            switch try source.rawValueIndex(Self.__vettedRawValueBytes) {
                            case 0:
                                result.append(.music)
                            case 1:
                                result.append(.books)
                            default:
                                result.append(try source.rawValueCase(Self.self))
                            }
                        } catch {
                            try source.recover(error)
                            failed = true
                        }
                    }
                    if failed {
                        throw source.recordedElements()
                    }
                    try source.checkField(result, field)
                    return result
                }
            }
            """#)
        expand(
            #"""
            @Vetted enum Level: Int, Codable {
                case low = 1, high
            }
            """#,
            #"""
            enum Level: Int, Codable {
                case low = 1, high
            }

            extension Level: VettedDecoding._VettedIntEnum {
                static var __vettedRawValues: [Int] {
                    [Self.low.rawValue, Self.high.rawValue]
                }
                init(__vettedRawValue rawValue: Int) throws(VettedDecoding._VettedRawValueMiss) {
                    guard let value = Self(rawValue: rawValue) else {
                        throw VettedDecoding._VettedRawValueMiss()
                    }
                    self = value
                }
                static func __vettedArray(count: Int, _ element: (Int) throws -> Self) rethrows -> [Self] {
                    var result: [Self] = []
                    result.reserveCapacity(count)
                    for index in 0 ..< count {
                        result.append(try element(index))
                    }
                    return result
                }
                static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            result.append(try source.intCase(Self.self))
                        } catch {
                            try source.recover(error)
                            failed = true
                        }
                    }
                    if failed {
                        throw source.recordedElements()
                    }
                    try source.checkField(result, field)
                    return result
                }
            }
            """#)
    }

    /// An enum's own init(from:) would be bypassed by reading its raw value: refused.
    @Test func enumsWithTheirOwnDecoderOrAssociatedValuesAreRefused() {
        refuse(
            """
            @Vetted enum Tag: String, Codable {
                case music
                init(from decoder: any Decoder) throws { self = .music }
            }
            """,
            "@Vetted decodes an enum by its raw value, as the standard init(from:) does: this init(from:) would be bypassed; remove @Vetted or this init",
            line: 3, column: 5)
        refuse(
            """
            @Vetted enum Shape: String, Codable {
                case square(Int)
            }
            """, "@Vetted applies to an enum whose raw values are String or Int, without associated values", line: 2, column: 5)
    }

    /// A final class, or a type with its own init(from:), keeps init(from:): only the rules are generated.
    @Test func classesAndOwnDecodersKeepInitFromDecoder() {
        expand(
            #"""
            @Vetted final class Auction: Decodable {
                @Check(.notAfter(\Auction.closes)) var opens: Double
                var closes: Double
            }
            """#,
            #"""
            final class Auction: Decodable {
                var opens: Double
                var closes: Double

                static let validation = VettedRules.Validation<Auction> {
                    VettedMacros.__vettedRelationNotAfter(CodingKeys.`opens`.stringValue, CodingKeys.`closes`.stringValue, as: VettedMacros.__vettedRelationType(\Auction.opens, \Auction.closes))
                }

                func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    visitor.visit(self.opens, key: CodingKeys.`opens`.stringValue)
                    visitor.visit(self.closes, key: CodingKeys.`closes`.stringValue)
                }
            }

            extension Auction: VettedMacros.VettedModel {
            }
            """#)
        expand(
            #"""
            @Vetted struct Own: Decodable {
                var a: Int
                init(from decoder: any Decoder) throws { a = 1 }
            }
            """#,
            #"""
            struct Own: Decodable {
                var a: Int
                init(from decoder: any Decoder) throws { a = 1 }

                static let validation = VettedRules.Validation<Own> {

                }

                func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    visitor.visit(self.a, key: "a")
                }
            }

            extension Own: VettedMacros.VettedModel {
            }
            """#)
    }

    @Test func refusesWhatItCannotRead() {
        refuse(
            """
            @Vetted protocol P {
            }
            """, "@Vetted applies to a struct, a final class or an enum with String or Int raw values", line: 1, column: 1)
        refuse(
            """
            @Vetted enum E: Codable {
                case a
            }
            """, "@Vetted applies to an enum whose raw values are String or Int, without associated values", line: 1, column: 1)
        refuse(
            """
            @Vetted enum E: Double, Codable {
                case a
            }
            """, "@Vetted applies to an enum whose raw values are String or Int, without associated values", line: 1, column: 1)
        refuse(
            """
            @Vetted class C: Decodable {
                var a = 1
            }
            """,
            "@Vetted applies to a final class: a subclass could decode fields its rules do not know", line: 1, column: 1)
        refuse(
            """
            @Vetted struct G<T: Decodable>: Decodable {
                var a: T
            }
            """,
            "@Vetted does not support generic types yet; declare the rules with `Validation` by hand", line: 1, column: 1)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(1...5)) var a = 1, b = 2
            }
            """, "@Check applies to one property: declare each property on its own line", line: 2, column: 5,
            alsoFromTheCompiler: "peer macro can only be applied to a single variable")
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(1...5)) var a: Int { 1 }
            }
            """,
            "@Check on 'a', which is not a stored instance property: it is never decoded, so its rules could never run", line: 2,
            column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(1...5)) var a: Int
                var b: Int
                enum CodingKeys: String, CodingKey {
                    case b
                }
            }
            """, "'a' is not one of CodingKeys' cases: it is never decoded, so a rule on it could never run", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(1...5)) let a = 1
            }
            """,
            "'a' is a constant with a value: synthesized decoding never reads it, so its rules could never run", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(1...5)) var a = 1
            }
            """, "@Check needs the property's type written out: 'var a: Type'", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check() var a: Int
            }
            """, "@Check needs at least one rule: @Check(.range(1...10))", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.notBefore(\\T.a.b)) var c: Int
            }
            """, "a relation names another property of this type by key path: \\Type.property", line: 2, column: 23)
        refuse(
            """
            struct T: Decodable {
                @Check(.range(1...5)) var a: Int
            }
            """, "@Check is read only by @Vetted: mark the enclosing type @Vetted, or these rules never run", line: 2, column: 5)
    }

    /// Literals the compiler accepts but that cannot work, and properties whose stored value is
    /// not what decoding reads: refused at compile time, never read as bad data later.
    @Test func declarationsThatCannotWorkAreRefused() {
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(5...1)) var a: Int
            }
            """, "the range 5...1 has its lower bound above its upper bound: it traps when it is built", line: 2, column: 19)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.range(-1.5 ..< -2)) var a: Double
            }
            """, "the range -1.5 ..< -2 has its lower bound above its upper bound: it traps when it is built", line: 2, column: 19)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.pattern("[a-")) var a: String
            }
            """, "the pattern \"[a-\" does not compile (invalid pattern at 3: missing ']'): every value would fail, read as bad data", line: 2, column: 21)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.count(1...3) && .each(.pattern("(a"))) var a: [String]
            }
            """, "the pattern \"(a\" does not compile (invalid pattern at 2: missing ')'): every value would fail, read as bad data", line: 2, column: 44)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.length(1...5)) lazy var a: String = "x"
            }
            """, "@Check on 'a', which is lazy: what decoding stores is not the property's value, so its rules cannot run on it", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.length(1...5)) @Trimmed var a: String
            }
            """, "@Check on 'a', which is wrapped by @Trimmed: what decoding stores is not the property's value, so its rules cannot run on it", line: 2, column: 5)
        refuse(
            """
            @Vetted struct T: Decodable {
                @Check(.notBefore(\\T.b)) var a: Int
                var b: Int { a }
            }
            """, "a relation to 'b', which is not a coded stored property: its value is never decoded, so the relation could never run", line: 2, column: 23)
    }
}

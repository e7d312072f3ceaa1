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
            enum Event: Codable {
                case created(Created)
                case sold(Sold)
                case other(String)

                static let validation = VettedRules.Validation<Event> {
                }

                func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    switch self {
                    case .created(let payload):
                        visitor.visitPayload(payload, key: nil)
                    case .sold(let payload):
                        visitor.visitPayload(payload, key: nil)
                    case .other:
                        break
                    }
                }

                typealias __VettedPayload0 = Created

                typealias __VettedPayload1 = Sold
            }

            extension Event: VettedMacros.VettedModel {
            }

            extension Event: VettedDecoding._VettedUnion {
                static let __vettedUnion = VettedDecoding._VettedUnionTable(
                    tag: "type", content: nil, tags: ["created", "listing.sold"],
                    payloads: [__VettedPayload0.self, __VettedPayload1.self], fallback: true)
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: VettedDecoding._VettedKey.self)
                    switch try Self.__vettedUnion.caseIndex(in: container, of: decoder) {
                    case 0:
                        self = .created(try Self.__vettedUnion.payload(__VettedPayload0.self, from: decoder, container))
                    case 1:
                        self = .sold(try Self.__vettedUnion.payload(__VettedPayload1.self, from: decoder, container))
                    default:
                        self = .other(try Self.__vettedUnion.unknownTagName(in: container))
                    }
                }
                init<Source: VettedDecoding._VettedArraySource>(__vettedUnion source: inout Source) throws {
                    switch try source.beginUnion(Self.__vettedUnion) {
                    case 0:
                        self = .created(try __VettedPayload0(__vetted: &source))
                    case 1:
                        self = .sold(try __VettedPayload1(__vetted: &source))
                    default:
                        throw VettedDecoding._VettedDirectMiss()
                    }
                    try source.endUnion(Self.__vettedUnion)
                }
                static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            result.append(try Self(__vettedUnion: &source))
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
                func encode(to encoder: any Encoder) throws {
                    switch self {
                    case .created(let payload):
                        try Self.__vettedUnion.encode(payload, tag: "created", to: encoder)
                    case .sold(let payload):
                        try Self.__vettedUnion.encode(payload, tag: "listing.sold", to: encoder)
                    case .other(let tag):
                        try Self.__vettedUnion.encodeTag(tag, to: encoder)
                    }
                }
            }
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
            public enum Event: Decodable {
                case created(Created)

                public static let validation = VettedRules.Validation<Event> {
                }

                public func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    switch self {
                    case .created(let payload):
                        visitor.visitPayload(payload, key: "data")
                    }
                }

                typealias __VettedPayload0 = Created
            }

            extension Event: VettedMacros.VettedModel {
            }

            extension Event: VettedDecoding._VettedUnion {
                public static let __vettedUnion = VettedDecoding._VettedUnionTable(
                    tag: "kind", content: "data", tags: ["created"],
                    payloads: [__VettedPayload0.self], fallback: false)
                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: VettedDecoding._VettedKey.self)
                    switch try Self.__vettedUnion.caseIndex(in: container, of: decoder) {
                    case 0:
                        self = .created(try Self.__vettedUnion.payload(__VettedPayload0.self, from: decoder, container))
                    default:
                        throw Self.__vettedUnion.invalidCase()
                    }
                }
                public init<Source: VettedDecoding._VettedArraySource>(__vettedUnion source: inout Source) throws {
                    switch try source.beginUnion(Self.__vettedUnion) {
                    case 0:
                        self = .created(try __VettedPayload0(__vetted: &source))
                    default:
                        throw VettedDecoding._VettedDirectMiss()
                    }
                    try source.endUnion(Self.__vettedUnion)
                }
                public static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                    var result: [Self] = []
                    var count = 0
                    var failed = false
                    try source.beginArray()
                    while try source.nextElement(count) {
                        count += 1
                        do {
                            result.append(try Self(__vettedUnion: &source))
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
            struct Page: Codable {
                var limit: Int
                var id: Int
                var note: String?

                static let validation = VettedRules.Validation<Page> {
                    VettedRules.Field("limit", VettedRules.Rule<Int>.range(1 ... 100))
                }

                func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                    visitor.visit(self.limit, key: "limit")
                    visitor.visit(self.id, key: "id")
                    visitor.visit(self.note, key: "note")
                }

                typealias __VettedField0 = Int

                @_documentation(visibility: private) static var __vettedDefault0: Int {
                    20
                }

                typealias __VettedField1 = Int

                typealias __VettedField2 = String

                /// Written by `@Vetted`: the keys its generated `init(from:)` reads. Declaring
                /// `CodingKeys` in an extension is refused here: declare it in the type's body.
                enum CodingKeys: String, CodingKey {
                    case `limit`
                    case `id`
                    case `note`
                }
            }

            extension Page: VettedMacros.VettedModel {
            }

            extension Page: VettedDecoding._VettedDecodable {
                static let __vettedFields = VettedDecoding._VettedFieldTable(
                    ["limit", "id", "note"], aliases: [[], ["productId"], []], types: [__VettedField0.self, __VettedField1.self, __VettedField2.self], isArray: [false, false, false], required: [false, true, false], optional: [false, false, true], defaults: ["20", nil, nil])
                init<Source: VettedDecoding._VettedFieldSource>(__vetted source: inout Source) throws {
                    try source.beginObject(Self.self)
                    var __vetted0: __VettedField0? = nil
                    var __vetted1: __VettedField1? = nil
                    var __vetted2: __VettedField2? = nil
                    var __vettedFailed = false
                    while let field = try source.nextField() {
                        do {
                            switch field {
                            case 0:
                                if try !source.isAbsent(0) {
                                    __vetted0 = try source.read(__VettedField0.self, 0)
                                }
                            case 1:
                                __vetted1 = try source.read(__VettedField1.self, 1)
                            case 2:
                                __vetted2 = try source.readIfPresent(__VettedField2.self, 2)
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
                    if __vetted0 == nil {
                        let value = Self.__vettedDefault0
                        try source.checkDefault(value, 0)
                        __vetted0 = value
                    }
                    guard let __vetted0 else {
                        throw source.missing(0)
                    }
                    guard let __vetted1 else {
                        throw source.missing(1)
                    }
                    try source.endObject { _ in
                        nil
                    }
                    self.limit = __vetted0
                    self.id = __vetted1
                    self.note = __vetted2
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

            extension Page {
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: VettedDecoding._VettedKey.self)
                    try VettedDecoding._VettedKey.checkSpellings(Self.__vettedFields, in: container)
                    if let key = try VettedDecoding._VettedKey.present(["limit"], in: container, defaulted: true) {
                        self.limit = try container.decode(__VettedField0.self, forKey: key)
                    } else {
                        self.limit = try VettedDecoding._VettedKey.standIn(Self.__vettedDefault0, key: "limit", of: Self.self, decoder: decoder)
                    }
                    if let key = try VettedDecoding._VettedKey.present(["id", "productId"], in: container) {
                        self.id = try container.decode(__VettedField1.self, forKey: key)
                    } else {
                        self.id = try VettedDecoding._VettedKey.missing("id", in: container)
                    }
                    self.note = try container.decodeIfPresent(__VettedField2.self, forKey: VettedDecoding._VettedKey("note"))
                }
            }
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

    /// A literal default outside a one-sided range is refused at compile time, as for a closed one.
    @Test func refusesADefaultOutsideAOneSidedRange() {
        expand(
            #"""
            @Vetted struct T: Codable {
                @Check(.range(1...)) @Default(0) var a: Int
            }
            """#,
            #"""
            struct T: Codable {
                var a: Int
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "the default 0 of 'a' breaks its own rule .range(1...): every document without the key would fail", line: 2, column: 26)
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

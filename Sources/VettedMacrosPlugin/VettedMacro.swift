import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros
import SwiftParser
// The pattern compiler itself, to refuse a literal pattern that does not compile at build time.
import VettedCore
import VettedRules

/// `@Vetted`: reads the `@Check` attributes of a struct's (or final class's)
/// stored properties and its `CodingKeys`, and writes the type's `VettedModel`
/// conformance — its `Validatable` rules, each written as a `Rule` of its
/// property's declared type so that the compiler checks it, the walk over its
/// coded fields that `validate()` uses, and (structs) its generated decoding.
///
/// The rules are members of the type, not of an extension: a property's type
/// is spelled as the declaration spells it, and only inside the type does that
/// spelling name the same type (an extension at file scope could resolve
/// `Tag` to another module's `Tag`).
public struct VettedMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            // Diagnosed here, once; the extension role stays silent.
            _ = RawValueEnum(enumeration, attribute: node, in: context)
            return []
        }
        guard let model = Model(declaration, attribute: node, in: context) else { return [] }
        let access = model.access.map { $0 + " " } ?? ""
        var rules: [String] = []
        for property in model.checked {
            for rule in property.rules {
                switch rule {
                case .field(let expression):
                    // `.count(1...10)` becomes `Rule<[Tag]>.count(1...10)`: the compiler then names the
                    // rule and the property's type in its error. Other forms (`a && b`) are coerced.
                    let typed =
                        expression.hasPrefix(".")
                        ? "VettedRules.Rule<\(property.valueType)>\(expression)"
                        : "(\(expression)) as VettedRules.Rule<\(property.valueType)>"
                    rules.append("VettedRules.Field(\(property.keyExpression), \(typed))")
                case .relation(let kind, let otherKey, let other):
                    let otherKey = model.keyExpression(name: other, key: otherKey)
                    let type = "VettedMacros.__vettedRelationType(\\\(model.name).\(property.name), \\\(model.name).\(other))"
                    switch kind {
                    case .notBefore:
                        rules.append("VettedRules.Relation(\(property.keyExpression), after: \(otherKey), as: \(type))")
                    case .notAfter:
                        rules.append("VettedMacros.__vettedRelationNotAfter(\(property.keyExpression), \(otherKey), as: \(type))")
                    }
                }
            }
        }
        let visits = model.coded.map { "    visitor.visit(self.\($0.name), key: \($0.keyExpression))" }
        let validation: DeclSyntax = """
            \(raw: access)static let validation = VettedRules.Validation<\(raw: model.name)> {
            \(raw: rules.map { "    " + $0 }.joined(separator: "\n"))
            }
            """
        let walk: DeclSyntax = """
            \(raw: access)func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
            \(raw: visits.joined(separator: "\n"))
            }
            """
        // The fields' types, named where the declaration names them, for the generated
        // decoding in the extension (where `Tag` could name another type).
        var aliases: [DeclSyntax] = []
        if model.keepsInitFromDecoder == nil {
            for (index, property) in model.coded.enumerated() {
                aliases.append("typealias __VettedField\(raw: index) = \(raw: property.valueType)")
                if property.isArray { aliases.append("typealias __VettedElement\(raw: index) = \(raw: property.elementType)") }
            }
        }
        return [validation, walk] + aliases
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            guard let raw = RawValueEnum(enumeration, attribute: node, in: DiscardingContext(context)) else { return [] }
            let access = raw.access.map { $0 + " " } ?? ""
            let protocolName = raw.rawType == "String" ? "_VettedStringEnum" : "_VettedIntEnum"
            // String raw values: their bytes, and each case by its position among them.
            var byBytes = ""
            if raw.rawType == "String" {
                let values = raw.cases.map { "Self.\($0).rawValue" }.joined(separator: ", ")
                let switchCases = raw.cases.enumerated().map { "        case \($0.offset): return .\($0.element)" }.joined(separator: "\n")
                byBytes = """

                        \(access)static let __vettedRawValueBytes = VettedRules._VettedRawValueBytes([\(values)])
                        \(access)static func __vettedCase(_ index: Int) -> Self? {
                            switch index {
                    \(switchCases)
                            default: return nil
                            }
                        }
                    """
            }
            let decl: DeclSyntax = """
                extension \(type.trimmed): VettedRules.\(raw: protocolName) {
                    \(raw: access)init(__vettedRawValue rawValue: \(raw: raw.rawType)) throws(VettedRules._VettedRawValueMiss) {
                        guard let value = Self(rawValue: rawValue) else { throw VettedRules._VettedRawValueMiss() }
                        self = value
                    }
                    \(raw: access)static func __vettedArray(count: Int, _ element: (Int) throws -> Self) throws -> [Self] {
                        var result: [Self] = []
                        result.reserveCapacity(count)
                        for index in 0 ..< count { result.append(try element(index)) }
                        return result
                    }
                }
                """
            // JSON read straight from the bytes: an array of the enum, built here, each raw
            // value's exact bytes matched to its case (any other spelling: `init(rawValue:)`).
            let element =
                raw.rawType == "String"
                ? """
                            switch try reader.rawValueIndex(Self.__vettedRawValueBytes) {
                \(raw.cases.enumerated().map { "            case \($0.offset): result.append(.\($0.element))" }.joined(separator: "\n"))
                            default: result.append(try reader.rawValueCase(Self.self))
                            }
                """
                : "            result.append(try reader.intCase(Self.self))"
            let direct: DeclSyntax = """
                extension \(type.trimmed): VettedJSON._VettedJSONDirectArray {\(raw: byBytes)
                    \(raw: access)static func __vettedDirectArray(_ reader: inout VettedJSON._JSONDirectReader) throws(VettedRules._VettedDirectMiss) -> [Self] {
                        var result: [Self] = []
                        try reader.beginArray()
                        while try reader.nextElement(result.count) {
                \(raw: element)
                        }
                        return result
                    }
                }
                """
            return [decl, direct].compactMap { $0.as(ExtensionDeclSyntax.self) }
        }
        // The member role reports what is wrong; this one only stays silent then.
        guard let model = Model(declaration, attribute: node, in: DiscardingContext(context)) else { return [] }
        let access = model.access.map { $0 + " " } ?? ""
        let conformance: DeclSyntax = "extension \(type.trimmed): VettedMacros.VettedModel {}"
        guard let ext = conformance.as(ExtensionDeclSyntax.self) else { return [] }
        guard model.keepsInitFromDecoder == nil else { return [ext] }
        let names = model.coded.map(\.keyExpression).joined(separator: ", ")
        let assignments = model.coded.enumerated().map { index, property in
            "        self.\(property.name) = try fields.\(property.isOptional ? "decodeIfPresent" : property.isArray ? "decodeArray" : "decode")(\(index))"
        }
        // The inherited conformance is written out: the macro declares it too (for enums), and a
        // conformance a macro declares is not implied by another.
        let decoding: DeclSyntax = """
            extension \(type.trimmed): VettedJSON._VettedJSONDecodable, VettedJSON._VettedJSONDirectArray {
                \(raw: access)static let __vettedFields = VettedRules._VettedFieldTable([\(raw: names)])
                \(raw: access)init(__vettedJSON fields: inout VettedJSON._JSONFields) throws {
            \(raw: assignments.joined(separator: "\n"))
                }
                \(raw: access)init(__vettedDirect reader: inout VettedJSON._JSONDirectReader) throws(VettedRules._VettedDirectMiss) {
            \(raw: directBody(model).joined(separator: "\n"))
                }
                \(raw: access)static func __vettedDirectArray(_ reader: inout VettedJSON._JSONDirectReader) throws(VettedRules._VettedDirectMiss) -> [Self] {
                    var result: [Self] = []
                    try reader.beginArray()
                    while try reader.nextElement(result.count) { result.append(try Self(__vettedDirect: &reader)) }
                    return result
                }
            }
            """
        let plistDecoding: DeclSyntax = """
            extension \(type.trimmed): VettedPlist._VettedPlistDecodable {
                \(raw: access)init(__vettedPlist fields: inout VettedPlist._PlistFields) throws {
            \(raw: assignments.joined(separator: "\n"))
                }
            }
            """
        guard let decodingExtension = decoding.as(ExtensionDeclSyntax.self) else { return [ext] }
        var result = [ext]
        if protocols.isEmpty || protocols.contains(where: { $0.trimmedDescription.hasSuffix("_VettedJSONDecodable") }) {
            result.append(decodingExtension)
        }
        if let plistExtension = plistDecoding.as(ExtensionDeclSyntax.self),
            protocols.isEmpty || protocols.contains(where: { $0.trimmedDescription.hasSuffix("_VettedPlistDecodable") })
        {
            result.append(plistExtension)
        }
        return result
    }

    /// The body of `init(__vettedDirect:)`: each member read as it comes, by a call
    /// chosen for the field's type; all required fields present; relations run.
    static func directBody(_ model: Model) -> [String] {
        var lines = ["        var object = try reader.beginObject(Self.self)"]
        for index in model.coded.indices {
            lines.append("        var __vetted\(index): __VettedField\(index)? = nil")
        }
        lines.append("        while let field = try reader.nextField(&object) {")
        lines.append("            switch field {")
        for (index, property) in model.coded.enumerated() {
            let call =
                property.isOptional
                ? "readIfPresent(__VettedField\(index).self"
                : property.isArray ? "readArray(__VettedElement\(index).self" : "read(__VettedField\(index).self"
            lines.append("            case \(index): __vetted\(index) = try reader.\(call), \(index), &object)")
        }
        lines.append("            default: try reader.skipValue()")
        lines.append("            }")
        lines.append("        }")
        let required = model.coded.indices.filter { !model.coded[$0].isOptional }
        if !required.isEmpty {
            lines.append("        guard \(required.map { "let __vetted\($0)" }.joined(separator: ", ")) else { throw VettedRules._VettedDirectMiss() }")
        }
        var related: [Int] = []
        for property in model.checked {
            for rule in property.rules {
                guard case .relation(_, _, let other) = rule else { continue }
                for name in [property.name, other] {
                    if let index = model.coded.firstIndex(where: { $0.name == name }), !related.contains(index) { related.append(index) }
                }
            }
        }
        if !related.isEmpty {
            lines.append("        try reader.relations(&object) { field -> Any? in")
            lines.append("            switch field {")
            for index in related.sorted() { lines.append("            case \(index): return __vetted\(index)") }
            lines.append("            default: return nil")
            lines.append("            }")
            lines.append("        }")
        }
        for (index, property) in model.coded.enumerated() {
            lines.append("        self.\(property.name) = __vetted\(index)")
        }
        return lines
    }

    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

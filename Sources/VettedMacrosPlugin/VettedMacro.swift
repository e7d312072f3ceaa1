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
            if TaggedUnion.keys(of: node) != nil {
                return TaggedUnion(enumeration, attribute: node, in: context)?.members() ?? []
            }
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
                // A default, typed as its field: one of another type does not compile.
                if let value = property.defaultExpression {
                    aliases.append(
                        """
                        @_documentation(visibility: private) \(raw: access)static var __vettedDefault\(raw: index): \(raw: property.valueType) {
                            \(raw: value)
                        }
                        """)
                }
            }
        }
        if model.writesCodingKeys {
            let cases = model.storedNames.map { "    case `\($0)`" }.joined(separator: "\n")
            aliases.append(
                """
                /// Written by `@Vetted`: the keys its generated `init(from:)` reads. Declaring
                /// `CodingKeys` in an extension is refused here: declare it in the type's body.
                \(raw: access)enum CodingKeys: String, CodingKey {
                \(raw: cases)
                }
                """)
        }
        return [validation, walk] + aliases
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        if let enumeration = declaration.as(EnumDeclSyntax.self), TaggedUnion.keys(of: node) != nil {
            return TaggedUnion(enumeration, attribute: node, in: DiscardingContext(context))?.extensions(for: type) ?? []
        }
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            guard let raw = RawValueEnum(enumeration, attribute: node, in: DiscardingContext(context)) else { return [] }
            let access = raw.access.map { $0 + " " } ?? ""
            let protocolName = raw.rawType == "String" ? "_VettedStringEnum" : "_VettedIntEnum"
            // String raw values: their bytes, and each case by its position among them.
            // Int raw values: the list, for schemas.
            var byBytes =
                raw.rawType == "String"
                ? ""
                : """

                        \(access)static var __vettedRawValues: [Int] { [\(raw.cases.map { "Self.\($0).rawValue" }.joined(separator: ", "))] }
                    """
            if raw.rawType == "String" {
                let values = raw.cases.map { "Self.\($0).rawValue" }.joined(separator: ", ")
                let switchCases = raw.cases.enumerated().map { "        case \($0.offset): return .\($0.element)" }.joined(separator: "\n")
                byBytes = """

                        \(access)static let __vettedRawValueBytes = VettedDecoding._VettedRawValueBytes([\(values)])
                        \(access)static func __vettedCase(_ index: Int) -> Self? {
                            switch index {
                    \(switchCases)
                            default: return nil
                            }
                        }
                    """
            }
            // Arrays read as the bytes come: each raw value's exact bytes matched to its case
            // (any other spelling: `init(rawValue:)`).
            let element =
                raw.rawType == "String"
                ? """
                            switch try source.rawValueIndex(Self.__vettedRawValueBytes) {
                \(raw.cases.enumerated().map { "            case \($0.offset): result.append(.\($0.element))" }.joined(separator: "\n"))
                            default: result.append(try source.rawValueCase(Self.self))
                            }
                """
                : "            result.append(try source.intCase(Self.self))"
            let decl: DeclSyntax = """
                extension \(type.trimmed): VettedDecoding.\(raw: protocolName) {\(raw: byBytes)
                    \(raw: access)init(__vettedRawValue rawValue: \(raw: raw.rawType)) throws(VettedDecoding._VettedRawValueMiss) {
                        guard let value = Self(rawValue: rawValue) else { throw VettedDecoding._VettedRawValueMiss() }
                        self = value
                    }
                    \(raw: access)static func __vettedArray(count: Int, _ element: (Int) throws -> Self) rethrows -> [Self] {
                        var result: [Self] = []
                        result.reserveCapacity(count)
                        for index in 0 ..< count { result.append(try element(index)) }
                        return result
                    }
                \(raw: arrayReader(access: access, element: element))
                }
                """
            return [decl].compactMap { $0.as(ExtensionDeclSyntax.self) }
        }
        // The member role reports what is wrong; this one only stays silent then.
        guard let model = Model(declaration, attribute: node, in: DiscardingContext(context)) else { return [] }
        let access = model.access.map { $0 + " " } ?? ""
        let conformance: DeclSyntax = "extension \(type.trimmed): VettedMacros.VettedModel {}"
        guard let ext = conformance.as(ExtensionDeclSyntax.self) else { return [] }
        guard model.keepsInitFromDecoder == nil else { return [ext] }
        let names = model.coded.map(\.keyExpression).joined(separator: ", ")
        let types = model.coded.indices.map { index in
            !model.coded[index].isOptional && model.coded[index].isArray ? "__VettedElement\(index).self" : "__VettedField\(index).self"
        }
        let arrays = model.coded.map { !$0.isOptional && $0.isArray ? "true" : "false" }
        // Which fields a document must have: not an optional, not a default (written only when some may be absent).
        var required =
            model.coded.allSatisfy { !$0.isOptional && $0.defaultExpression == nil }
            ? ""
            : ", required: [\(model.coded.map { !$0.isOptional && $0.defaultExpression == nil ? "true" : "false" }.joined(separator: ", "))]"
                + ", optional: [\(model.coded.map { $0.isOptional ? "true" : "false" }.joined(separator: ", "))]"
        // Literal defaults as JSON text, for schemas (`default`).
        let defaults = model.coded.map { $0.defaultExpression.flatMap(Self.jsonLiteral) }
        if defaults.contains(where: { $0 != nil }) {
            required += ", defaults: [\(defaults.map { $0.map(Self.literal) ?? "nil" }.joined(separator: ", "))]"
        }
        let spellings =
            model.coded.contains { !$0.aliases.isEmpty }
            ? "aliases: [\(model.coded.map { "[" + $0.aliases.map(Self.literal).joined(separator: ", ") + "]" }.joined(separator: ", "))], "
            : ""
        // One body for every source: the JSON bytes, the JSON tape, a property list's values.
        let decoding: DeclSyntax = """
            extension \(type.trimmed): VettedDecoding._VettedDecodable {
                \(raw: access)static let __vettedFields = VettedDecoding._VettedFieldTable(
                    [\(raw: names)], \(raw: spellings)types: [\(raw: types.joined(separator: ", "))], isArray: [\(raw: arrays.joined(separator: ", "))]\(raw: required))
                \(raw: access)init<Source: VettedDecoding._VettedFieldSource>(__vetted source: inout Source) throws {
            \(raw: decodingBody(model).joined(separator: "\n"))
                }
            \(raw: arrayReader(access: access, element: "            result.append(try Self(__vetted: &source))"))
            }
            """
        guard let decodingExtension = decoding.as(ExtensionDeclSyntax.self),
            protocols.isEmpty || protocols.contains(where: { $0.trimmedDescription.hasSuffix("_VettedDecodable") })
        else { return [ext] }
        guard model.needsInitFromDecoder else { return [ext, decodingExtension] }
        // Defaults and aliases hold for every decoder (Foundation's too): init(from:) is written
        // to match, in an extension so that the memberwise initializer stays.
        let initFromDecoder: DeclSyntax = """
            extension \(type.trimmed) {
                \(raw: access)init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: VettedDecoding._VettedKey.self)
            \(raw: initFromDecoderBody(model).joined(separator: "\n"))
                }
            }
            """
        guard let initExtension = initFromDecoder.as(ExtensionDeclSyntax.self) else { return [ext, decodingExtension] }
        return [ext, decodingExtension, initExtension]
    }

    /// `__vettedReadArray`: an array read as the bytes come, in the element type's own
    /// module, where the array's type is known; `element` appends one element to `result`.
    /// An element's error goes to the source, as a field's does: one that collects records
    /// it and the array goes on, then throws what it recorded.
    static func arrayReader(access: String, element: String) -> String {
        // Each line of `element` one level deeper, inside the `do` (an interpolation indents only its first line).
        let element = element.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        return """
            \(access)static func __vettedReadArray<Source: VettedDecoding._VettedArraySource>(from source: inout Source, field: Int) throws -> [Self] {
                var result: [Self] = []
                var count = 0
                var failed = false
                try source.beginArray()
                while try source.nextElement(count) {
                    count += 1
                    do {
        \(element)
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
        """
    }

    /// The body of `init(__vetted:)`: each field the source offers read by a call
    /// chosen for the field's type; every required field present; the object
    /// closed with the values its relations need.
    static func decodingBody(_ model: Model) -> [String] {
        var lines = ["        try source.beginObject(Self.self)"]
        for index in model.coded.indices {
            lines.append("        var __vetted\(index): __VettedField\(index)? = nil")
        }
        // A field's error goes to the source: one that collects structural errors records it and the
        // body goes on with the next field, then throws what it recorded; any other throws it again.
        lines.append("        var __vettedFailed = false")
        lines.append("        while let field = try source.nextField() {")
        lines.append("            do {")
        lines.append("                switch field {")
        for (index, property) in model.coded.enumerated() {
            let call =
                property.isOptional
                ? "readIfPresent(__VettedField\(index).self"
                : property.isArray ? "readArray(__VettedElement\(index).self" : "read(__VettedField\(index).self"
            if property.defaultExpression != nil {
                lines.append("                case \(index): if try !source.isAbsent(\(index)) { __vetted\(index) = try source.\(call), \(index)) }")
            } else {
                lines.append("                case \(index): __vetted\(index) = try source.\(call), \(index))")
            }
        }
        lines.append("                default: try source.skipValue()")
        lines.append("                }")
        lines.append("            } catch {")
        lines.append("                try source.recover(error)")
        lines.append("                __vettedFailed = true")
        lines.append("            }")
        lines.append("        }")
        lines.append("        if __vettedFailed { throw source.recorded() }")
        for index in model.coded.indices where !model.coded[index].isOptional {
            if model.coded[index].defaultExpression != nil {
                // Absent: the default (a present key of the wrong type or null threw above).
                lines.append("        if __vetted\(index) == nil {")
                lines.append("            let value = Self.__vettedDefault\(index)")
                lines.append("            try source.checkDefault(value, \(index))")
                lines.append("            __vetted\(index) = value")
                lines.append("        }")
            }
            lines.append("        guard let __vetted\(index) else { throw source.missing(\(index)) }")
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
        if related.isEmpty {
            lines.append("        try source.endObject { _ in nil }")
        } else {
            lines.append("        try source.endObject { field -> Any? in")
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

    /// The body of a generated `init(from:)`: synthesized decoding's calls, with each
    /// field's spellings looked up (two of them: `duplicateKey`) and its default when absent.
    static func initFromDecoderBody(_ model: Model) -> [String] {
        var lines: [String] = []
        if model.coded.contains(where: { !$0.aliases.isEmpty }) {
            // Two spellings of one field: reported before any field is read, as every decoder does.
            lines.append("        try VettedDecoding._VettedKey.checkSpellings(Self.__vettedFields, in: container)")
        }
        for (index, property) in model.coded.enumerated() {
            let type = "__VettedField\(index).self"
            guard property.defaultExpression != nil || !property.aliases.isEmpty else {
                let call = property.isOptional ? "decodeIfPresent" : "decode"
                lines.append("        self.\(property.name) = try container.\(call)(\(type), forKey: VettedDecoding._VettedKey(\(property.keyExpression)))")
                continue
            }
            let spellings = ([property.keyExpression] + property.aliases.map(Self.literal)).joined(separator: ", ")
            let call = property.isOptional ? "decodeIfPresent" : "decode"
            let absent =
                property.defaultExpression != nil
                ? "try VettedDecoding._VettedKey.standIn(Self.__vettedDefault\(index), key: \(property.keyExpression), of: Self.self, decoder: decoder)"
                : property.isOptional ? "nil" : "try VettedDecoding._VettedKey.missing(\(property.keyExpression), in: container)"
            let defaulted = property.defaultExpression != nil ? ", defaulted: true" : ""
            lines.append("        if let key = try VettedDecoding._VettedKey.present([\(spellings)], in: container\(defaulted)) {")
            lines.append("            self.\(property.name) = try container.\(call)(\(type), forKey: key)")
            lines.append("        } else {")
            lines.append("            self.\(property.name) = \(absent)")
            lines.append("        }")
        }
        return lines
    }

    /// A default's expression as JSON text, when it is a literal JSON can state: an integer or
    /// decimal number (signed), `true`/`false`, a string without interpolation; `nil` otherwise.
    static func jsonLiteral(_ source: String) -> String? {
        let expression: ExprSyntax = "\(raw: source)"
        var sign = ""
        var operand = expression
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            sign = "-"
            operand = prefix.expression
        }
        if let integer = operand.as(IntegerLiteralExprSyntax.self) {
            let digits = String(integer.literal.text.filter { $0 != "_" })
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), digits == "0" || !digits.hasPrefix("0") else { return nil }
            return sign + digits
        }
        if let float = operand.as(FloatLiteralExprSyntax.self) {
            let text = String(float.literal.text.filter { $0 != "_" })
            guard !text.hasPrefix("0x"), text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }),
                text.first?.isNumber == true
            else { return nil }
            return sign + text
        }
        guard sign.isEmpty else { return nil }
        if let array = expression.as(ArrayExprSyntax.self), array.elements.isEmpty { return "[]" }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return boolean.literal.text }
        if let string = expression.as(StringLiteralExprSyntax.self), let value = string.representedLiteralValue {
            var json = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        json.unicodeScalars.append(scalar)
                    }
                }
            }
            return json + "\""
        }
        return nil
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

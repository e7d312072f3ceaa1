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
            \(raw: access)func __vettedVisitFields(_ visitor: inout VettedMacros.VettedFieldVisitor) {
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
            let protocolName = raw.rawType == "String" ? "VettedStringEnum" : "VettedIntEnum"
            // String raw values: their bytes, and each case by its position among them.
            var byBytes = ""
            if raw.rawType == "String" {
                let values = raw.cases.map { "Self.\($0).rawValue" }.joined(separator: ", ")
                let switchCases = raw.cases.enumerated().map { "        case \($0.offset): return .\($0.element)" }.joined(separator: "\n")
                byBytes = """

                        \(access)static let __vettedRawValueBytes = VettedRules.VettedRawValueBytes([\(values)])
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
                    \(raw: access)init(__vettedRawValue rawValue: \(raw: raw.rawType)) throws(VettedRules.VettedRawValueMiss) {
                        guard let value = Self(rawValue: rawValue) else { throw VettedRules.VettedRawValueMiss() }
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
                extension \(type.trimmed): VettedJSON.VettedJSONDirectArray {\(raw: byBytes)
                    \(raw: access)static func __vettedDirectArray(_ reader: inout VettedJSON.JSONDirectReader) throws(VettedRules.VettedDirectMiss) -> [Self] {
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
            extension \(type.trimmed): VettedJSON.VettedJSONDecodable, VettedJSON.VettedJSONDirectArray {
                \(raw: access)static let __vettedFields = VettedRules.VettedFieldTable([\(raw: names)])
                \(raw: access)init(__vettedJSON fields: inout VettedJSON.JSONFields) throws {
            \(raw: assignments.joined(separator: "\n"))
                }
                \(raw: access)init(__vettedDirect reader: inout VettedJSON.JSONDirectReader) throws(VettedRules.VettedDirectMiss) {
            \(raw: directBody(model).joined(separator: "\n"))
                }
                \(raw: access)static func __vettedDirectArray(_ reader: inout VettedJSON.JSONDirectReader) throws(VettedRules.VettedDirectMiss) -> [Self] {
                    var result: [Self] = []
                    try reader.beginArray()
                    while try reader.nextElement(result.count) { result.append(try Self(__vettedDirect: &reader)) }
                    return result
                }
            }
            """
        let plistDecoding: DeclSyntax = """
            extension \(type.trimmed): VettedPlist.VettedPlistDecodable {
                \(raw: access)init(__vettedPlist fields: inout VettedPlist.PlistFields) throws {
            \(raw: assignments.joined(separator: "\n"))
                }
            }
            """
        guard let decodingExtension = decoding.as(ExtensionDeclSyntax.self) else { return [ext] }
        var result = [ext]
        if protocols.isEmpty || protocols.contains(where: { $0.trimmedDescription.hasSuffix("VettedJSONDecodable") }) {
            result.append(decodingExtension)
        }
        if let plistExtension = plistDecoding.as(ExtensionDeclSyntax.self),
            protocols.isEmpty || protocols.contains(where: { $0.trimmedDescription.hasSuffix("VettedPlistDecodable") })
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
            lines.append("        guard \(required.map { "let __vetted\($0)" }.joined(separator: ", ")) else { throw VettedRules.VettedDirectMiss() }")
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

/// `@Check`: generates nothing itself (`@Vetted` reads it), but refuses to sit
/// where nothing would read it.
public struct CheckMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(VariableDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.checkNotOnProperty))
            return []
        }
        let enclosing = context.lexicalContext.first { $0.asProtocol((any DeclGroupSyntax).self) != nil }
        let attributes = enclosing?.asProtocol((any DeclGroupSyntax).self)?.attributes
        if !(attributes.map(Model.hasVettedAttribute) ?? false) {
            context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.checkOutsideVetted))
        }
        return []
    }
}

/// A context that drops diagnostics: the second role of one attribute reads the same
/// declaration, and the first has already said what is wrong with it.
final class DiscardingContext<Base: MacroExpansionContext>: MacroExpansionContext {
    let base: Base
    init(_ base: Base) { self.base = base }
    var lexicalContext: [Syntax] { base.lexicalContext }
    func makeUniqueName(_ name: String) -> TokenSyntax { base.makeUniqueName(name) }
    func diagnose(_ diagnostic: Diagnostic) {}
    func location(of node: some SyntaxProtocol, at position: PositionInSyntaxNode, filePathMode: SourceLocationFilePathMode)
        -> AbstractSourceLocation?
    { base.location(of: node, at: position, filePathMode: filePathMode) }
}

/// What `@Vetted` reads of a type.
/// An enum `@Vetted` can decode without `init(from:)`: `String` or `Int` raw
/// values, no associated values, the standard library's `init(from:)`.
struct RawValueEnum {
    let rawType: String
    let access: String?
    /// The cases' names as written (backticks kept), in declaration order.
    var cases: [String] = []

    init?(_ declaration: EnumDeclSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext) {
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        guard let first = inherited.first, ["String", "Swift.String", "Int", "Swift.Int"].contains(first) else {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.enumRawType))
            return nil
        }
        rawType = first.hasSuffix("String") ? "String" : "Int"
        if declaration.genericParameterClause != nil {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.generic))
            return nil
        }
        for member in declaration.memberBlock.members {
            if let cases = member.decl.as(EnumCaseDeclSyntax.self), cases.elements.contains(where: { $0.parameterClause != nil }) {
                context.diagnose(Diagnostic(node: cases, message: VettedDiagnostic.enumRawType))
                return nil
            }
            if let cases = member.decl.as(EnumCaseDeclSyntax.self) {
                self.cases += cases.elements.map(\.name.text)
            }
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                context.diagnose(Diagnostic(node: initializer, message: VettedDiagnostic.enumOwnDecoder))
                return nil
            }
        }
        access = declaration.modifiers.lazy.compactMap { modifier -> String? in
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): "public"
            case .keyword(.package): "package"
            default: nil
            }
        }.first
    }
}

struct Model {
    struct Property {
        let name: String
        let key: String
        /// The key as generated code spells it: a string literal, or `CodingKeys.name.stringValue`
        /// when the type is Codable and declares no CodingKeys in its body (they may be declared
        /// in an extension, which the macro cannot see; synthesized ones give the name itself).
        var keyExpression = ""
        /// The declared type, optional unwrapped: the type of the property's rules.
        let valueType: String
        /// Declared `T?`, `T!` or `Optional<T>`: synthesized decoding uses `decodeIfPresent`.
        var isOptional = false
        /// Declared `[T]` or `Array<T>`: decoded by `decodeArray`.
        var isArray = false
        /// `T` of an array.
        var elementType = ""
        var rules: [CheckedRule] = []
    }

    enum RelationKind { case notBefore, notAfter }

    enum CheckedRule {
        case field(String)
        case relation(RelationKind, otherKey: String, property: String)
    }

    /// How generated code spells the key of property `name` whose key the macro reads as `key`.
    func keyExpression(name: String, key: String) -> String {
        keysFromCodingKeys ? "CodingKeys.`\(name)`.stringValue" : VettedMacro.literal(key)
    }

    /// Whether keys are spelled through `CodingKeys` (see ``Property/keyExpression``).
    var keysFromCodingKeys = false

    let name: String
    let access: String?
    /// Every property the synthesized (or declared) coding reads, in the order
    /// synthesized `init(from:)` decodes them (CodingKeys' order).
    var coded: [Property] = []
    /// Why decoding is not generated (the type keeps its `init(from:)`), or `nil` when it is.
    var keepsInitFromDecoder: String?
    /// The properties with rules.
    var checked: [Property] = []

    static func hasVettedAttribute(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "Vetted" || name == "VettedMacros.Vetted"
        }
    }

    static func checkAttributes(_ attributes: AttributeListSyntax) -> [AttributeSyntax] {
        attributes.compactMap { element in
            guard case .attribute(let attribute) = element else { return nil }
            let name = attribute.attributeName.trimmedDescription
            return name == "Check" || name == "VettedMacros.Check" ? attribute : nil
        }
    }

    init?(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext) {
        let modifiers: DeclModifierListSyntax
        if let structure = declaration.as(StructDeclSyntax.self) {
            name = structure.name.text
            modifiers = structure.modifiers
            if structure.genericParameterClause != nil {
                context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.generic))
                return nil
            }
        } else if let type = declaration.as(ClassDeclSyntax.self) {
            name = type.name.text
            keepsInitFromDecoder = "a class"
            modifiers = type.modifiers
            guard type.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
                context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.nonFinalClass))
                return nil
            }
            if type.genericParameterClause != nil {
                context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.generic))
                return nil
            }
        } else {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.notStructOrClass))
            return nil
        }
        access = modifiers.lazy.compactMap { modifier -> String? in
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): "public"
            case .keyword(.package): "package"
            default: nil
            }
        }.first

        // CodingKeys, when declared: case name → key.
        var codingKeys: [(name: String, key: String)]?
        for member in declaration.memberBlock.members {
            guard let keys = member.decl.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" else { continue }
            if keys.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription != "String" && $0.type.trimmedDescription != "CodingKey" }) ?? false {
                keepsInitFromDecoder = "CodingKeys with integer values or other conformances"
            }
            var cases: [(name: String, key: String)] = []
            for caseDecl in keys.memberBlock.members.compactMap({ $0.decl.as(EnumCaseDeclSyntax.self) }) {
                for element in caseDecl.elements {
                    let caseName = element.name.text.replacingBackticks()
                    var key = caseName
                    if let raw = element.rawValue?.value.as(StringLiteralExprSyntax.self), let text = raw.representedLiteralValue {
                        key = text
                    }
                    cases.append((caseName, key))
                }
            }
            codingKeys = cases
        }

        // Keys through CodingKeys when the type is Codable and its body declares none: they may sit in
        // an extension of the same file, which a macro cannot see but the compiler's synthesis uses.
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        // (Not with an init(from:) of its own: nothing is synthesized then, CodingKeys included.)
        let ownDecoder = declaration.memberBlock.members.contains { member in
            member.decl.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters.first?.firstName.text == "from"
        }
        keysFromCodingKeys =
            codingKeys == nil && !ownDecoder
            && inherited.contains { ["Codable", "Decodable", "Swift.Codable", "Swift.Decodable"].contains($0) }

        var failed = false
        /// Relations, checked once every property is known: the other side must be a coded, stored property.
        var relations: [(other: String, node: KeyPathExprSyntax)] = []
        for member in declaration.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                keepsInitFromDecoder = "its own init(from:)"
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) })
                || variable.attributes.count > Self.checkAttributes(variable.attributes).count
            {
                keepsInitFromDecoder = "a lazy or wrapped property"
            }
            let checks = Self.checkAttributes(variable.attributes)
            if !checks.isEmpty, let reason = Self.lazyOrWrapped(variable) {
                let name = variable.bindings.first?.pattern.trimmedDescription.replacingBackticks() ?? "?"
                context.diagnose(Diagnostic(node: checks[0], message: VettedDiagnostic.lazyOrWrapped(name, reason)))
                failed = true
                continue
            }
            let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            if !checks.isEmpty && variable.bindings.count != 1 {
                context.diagnose(Diagnostic(node: variable, message: VettedDiagnostic.severalBindings))
                failed = true
                continue
            }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let propertyName = pattern.identifier.text.replacingBackticks()
                let isComputed = binding.accessorBlock.map(Self.isComputed) ?? false
                let isStored = !isStatic && !isComputed
                // Synthesized coding reads every stored property but a `let` with a value.
                let key: String?
                if let codingKeys {
                    key = codingKeys.first { $0.name == propertyName }?.key
                } else {
                    key = isStored && !(isLet && binding.initializer != nil) ? propertyName : nil
                }
                let valueType = binding.typeAnnotation.map { Self.unwrappingOptional($0.type).trimmedDescription } ?? ""
                let isOptional = binding.typeAnnotation.map { Self.unwrappingOptional($0.type).trimmedDescription != $0.type.trimmedDescription } ?? false
                let isArray = binding.typeAnnotation.map { annotation in
                    annotation.type.is(ArrayTypeSyntax.self)
                        || annotation.type.as(IdentifierTypeSyntax.self).map { $0.name.text == "Array" && $0.genericArgumentClause != nil } ?? false
                } ?? false
                let elementType = binding.typeAnnotation.flatMap { Self.arrayElement($0.type) }?.trimmedDescription ?? ""
                if let key, isStored {
                    coded.append(
                        Property(
                            name: propertyName, key: key, keyExpression: keyExpression(name: propertyName, key: key), valueType: valueType,
                            isOptional: isOptional, isArray: isArray && !elementType.isEmpty, elementType: elementType))
                    if binding.typeAnnotation == nil { keepsInitFromDecoder = "a property without a written type" }
                }
                guard !checks.isEmpty else { continue }
                guard isStored else {
                    context.diagnose(Diagnostic(node: checks[0], message: VettedDiagnostic.notStored(propertyName)))
                    failed = true
                    continue
                }
                guard let key else {
                    let message: VettedDiagnostic =
                        codingKeys != nil ? .notInCodingKeys(propertyName) : .neverDecoded(propertyName)
                    context.diagnose(Diagnostic(node: checks[0], message: message))
                    failed = true
                    continue
                }
                guard binding.typeAnnotation != nil else {
                    context.diagnose(Diagnostic(node: checks[0], message: VettedDiagnostic.missingType(propertyName)))
                    failed = true
                    continue
                }
                var property = Property(name: propertyName, key: key, keyExpression: keyExpression(name: propertyName, key: key), valueType: valueType)
                for check in checks {
                    guard case .argumentList(let arguments) = check.arguments, !arguments.isEmpty else {
                        context.diagnose(Diagnostic(node: check, message: VettedDiagnostic.noRules))
                        failed = true
                        continue
                    }
                    for argument in arguments {
                        if let relation = Self.relation(argument.expression) {
                            guard let other = Self.propertyName(ofKeyPath: relation.keyPath), Self.isRooted(relation.keyPath, at: name) else {
                                context.diagnose(Diagnostic(node: relation.keyPath, message: VettedDiagnostic.relationKeyPath))
                                failed = true
                                continue
                            }
                            let otherKey = codingKeys.map { keys in keys.first { $0.name == other }?.key } ?? other
                            guard let otherKey else {
                                context.diagnose(Diagnostic(node: relation.keyPath, message: VettedDiagnostic.notInCodingKeys(other)))
                                failed = true
                                continue
                            }
                            property.rules.append(.relation(relation.kind, otherKey: otherKey, property: other))
                            relations.append((other, relation.keyPath))
                        } else {
                            if let problem = Self.literalProblem(in: argument.expression) {
                                context.diagnose(Diagnostic(node: problem.node, message: problem.message))
                                failed = true
                                continue
                            }
                            property.rules.append(.field(argument.expression.trimmedDescription))
                        }
                    }
                }
                checked.append(property)
            }
        }
        for relation in relations where !coded.contains(where: { $0.name == relation.other }) {
            context.diagnose(Diagnostic(node: relation.node, message: VettedDiagnostic.relationToUncoded(relation.other)))
            failed = true
        }
        if failed { return nil }
        if let codingKeys {
            // Synthesized init(from:) decodes in the order of CodingKeys' cases.
            coded = codingKeys.compactMap { key in coded.first { $0.name == key.name } }
        }
    }

    /// Whether a binding's accessors compute it (a `get`, or a bare getter body) rather than observe it.
    static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let accessors):
            return accessors.contains { [.keyword(.get), .keyword(._read), .keyword(.unsafeAddress)].contains($0.accessorSpecifier.tokenKind) }
        }
    }

    /// Why a property's value is not what decoding stores (`lazy`, a property wrapper), or nil.
    static func lazyOrWrapped(_ variable: VariableDeclSyntax) -> String? {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return "lazy" }
        for element in variable.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = attribute.attributeName.trimmedDescription
            guard name != "Check", name != "VettedMacros.Check", let first = name.split(separator: ".").last?.first, first.isUppercase else { continue }
            return "wrapped by @\(name)"
        }
        return nil
    }

    /// A literal the compiler accepts but that cannot work: a range whose bounds are both number
    /// literals and inverted (`5...1` traps when it is built), or a `.pattern("…")` that does not compile.
    static func literalProblem(in expression: ExprSyntax) -> (node: Syntax, message: VettedDiagnostic)? {
        // Every node of the argument, iteratively (an attribute's argument is small, but never recurse on syntax).
        var pending = [Syntax(expression)]
        while let node = pending.popLast() {
            pending.append(contentsOf: node.children(viewMode: .sourceAccurate))
            if let sequence = node.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
                let elements = Array(sequence.elements)
                guard let operatorToken = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text,
                    operatorToken == "..." || operatorToken == "..<",
                    let lower = numberLiteral(elements[0]), let upper = numberLiteral(elements[2])
                else { continue }
                if lower > upper {
                    return (Syntax(sequence), .invertedRange(sequence.trimmedDescription))
                }
            }
            if let call = node.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "pattern", let first = call.arguments.first, first.label == nil,
                let literal = first.expression.as(StringLiteralExprSyntax.self), let source = literal.representedLiteralValue
            {
                do {
                    _ = try LinearPattern(source)
                } catch {
                    return (Syntax(literal), .invalidPattern(source, error.message))
                }
            }
        }
        return nil
    }

    /// `12`, `-3`, `1.5`, `1_000` as a number; nil for anything else.
    static func numberLiteral(_ expression: ExprSyntax) -> Double? {
        var text = expression.trimmedDescription
        var sign = 1.0
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            sign = -1
            text = prefix.expression.trimmedDescription
            guard prefix.expression.is(IntegerLiteralExprSyntax.self) || prefix.expression.is(FloatLiteralExprSyntax.self) else { return nil }
        } else {
            guard expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self) else { return nil }
        }
        text.removeAll { $0 == "_" }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return sign * Double(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return sign * Double(value) }
        if text.hasPrefix("0b"), let value = Int(text.dropFirst(2), radix: 2) { return sign * Double(value) }
        return Double(text).map { sign * $0 }
    }

    /// `[T]` and `Array<T>` → `T`.
    static func arrayElement(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        if let named = type.as(IdentifierTypeSyntax.self), named.name.text == "Array",
            let arguments = named.genericArgumentClause?.arguments, arguments.count == 1,
            case .type(let element) = arguments.first?.argument
        {
            return element
        }
        return nil
    }

    /// `T?`, `T!` and `Optional<T>` → `T`: an optional's rules are its wrapped type's.
    static func unwrappingOptional(_ type: TypeSyntax) -> TypeSyntax {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let named = type.as(IdentifierTypeSyntax.self), named.name.text == "Optional",
            let arguments = named.genericArgumentClause?.arguments, arguments.count == 1,
            case .type(let wrapped) = arguments.first?.argument
        {
            return wrapped
        }
        return type
    }

    /// `.notBefore(\T.x)` / `.notAfter(\T.x)` at the top of an argument.
    static func relation(_ expression: ExprSyntax) -> (kind: RelationKind, keyPath: KeyPathExprSyntax)? {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
            call.arguments.count == 1, let keyPath = call.arguments.first?.expression.as(KeyPathExprSyntax.self)
        else { return nil }
        switch member.declName.baseName.text {
        case "notBefore": return (.notBefore, keyPath)
        case "notAfter": return (.notAfter, keyPath)
        default: return nil
        }
    }

    /// Whether the key path starts at the type itself (`\Listing.x`, `\Outer.Listing.x`, `\Self.x`).
    static func isRooted(_ keyPath: KeyPathExprSyntax, at typeName: String) -> Bool {
        guard let root = keyPath.root?.trimmedDescription else { return false }
        return root == "Self" || root == typeName || root.hasSuffix("." + typeName)
    }

    /// `\T.x` → `x`; `nil` for a key path of more than one property.
    static func propertyName(ofKeyPath keyPath: KeyPathExprSyntax) -> String? {
        guard keyPath.components.count == 1, let component = keyPath.components.first,
            case .property(let property) = component.component
        else { return nil }
        return property.declName.baseName.text.replacingBackticks()
    }
}

extension String {
    fileprivate func replacingBackticks() -> String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}

/// What the macros say when a declaration cannot be read as written.
enum VettedDiagnostic: DiagnosticMessage {
    case notStructOrClass
    case nonFinalClass
    case generic
    case severalBindings
    case notStored(String)
    case notInCodingKeys(String)
    case neverDecoded(String)
    case missingType(String)
    case noRules
    case relationKeyPath
    case checkNotOnProperty
    case checkOutsideVetted
    case enumRawType
    case enumOwnDecoder
    case lazyOrWrapped(String, String)
    case invertedRange(String)
    case invalidPattern(String, String)
    case relationToUncoded(String)

    var message: String {
        switch self {
        case .notStructOrClass: "@Vetted applies to a struct, a final class or an enum with String or Int raw values"
        case .enumRawType: "@Vetted applies to an enum whose raw values are String or Int, without associated values"
        case .enumOwnDecoder:
            "@Vetted decodes an enum by its raw value, as the standard init(from:) does: this init(from:) would be bypassed; remove @Vetted or this init"
        case .nonFinalClass: "@Vetted applies to a final class: a subclass could decode fields its rules do not know"
        case .generic: "@Vetted does not support generic types yet; declare the rules with `Validation` by hand"
        case .severalBindings: "@Check applies to one property: declare each property on its own line"
        case .notStored(let name): "@Check on '\(name)', which is not a stored instance property: it is never decoded, so its rules could never run"
        case .notInCodingKeys(let name):
            "'\(name)' is not one of CodingKeys' cases: it is never decoded, so a rule on it could never run"
        case .neverDecoded(let name):
            "'\(name)' is a constant with a value: synthesized decoding never reads it, so its rules could never run"
        case .missingType(let name): "@Check needs the property's type written out: 'var \(name): Type'"
        case .noRules: "@Check needs at least one rule: @Check(.range(1...10))"
        case .relationKeyPath: "a relation names another property of this type by key path: \\Type.property"
        case .checkNotOnProperty: "@Check applies to a stored property"
        case .checkOutsideVetted: "@Check is read only by @Vetted: mark the enclosing type @Vetted, or these rules never run"
        case .lazyOrWrapped(let name, let reason):
            "@Check on '\(name)', which is \(reason): what decoding stores is not the property's value, so its rules cannot run on it"
        case .invertedRange(let range): "the range \(range) has its lower bound above its upper bound: it traps when it is built"
        case .invalidPattern(let source, let why):
            "the pattern \"\(source)\" does not compile (\(why)): every value would fail, read as bad data"
        case .relationToUncoded(let name):
            "a relation to '\(name)', which is not a coded stored property: its value is never decoded, so the relation could never run"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notStructOrClass: id = "notStructOrClass"
        case .nonFinalClass: id = "nonFinalClass"
        case .generic: id = "generic"
        case .severalBindings: id = "severalBindings"
        case .notStored: id = "notStored"
        case .notInCodingKeys: id = "notInCodingKeys"
        case .neverDecoded: id = "neverDecoded"
        case .missingType: id = "missingType"
        case .noRules: id = "noRules"
        case .relationKeyPath: id = "relationKeyPath"
        case .checkNotOnProperty: id = "checkNotOnProperty"
        case .checkOutsideVetted: id = "checkOutsideVetted"
        case .enumRawType: id = "enumRawType"
        case .enumOwnDecoder: id = "enumOwnDecoder"
        case .lazyOrWrapped: id = "lazyOrWrapped"
        case .invertedRange: id = "invertedRange"
        case .invalidPattern: id = "invalidPattern"
        case .relationToUncoded: id = "relationToUncoded"
        }
        return MessageID(domain: "VettedMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// What `@Vetted(tag:)` (and `@Vetted(tag:content:)`) reads of an enum: a
/// tagged union whose cases each carry one `@Vetted` struct, and at most one
/// `@UnknownTag` case carrying the tag it did not know.
struct TaggedUnion {
    struct Case {
        /// The case's name as written (backticks kept).
        let name: String
        /// The tag that selects it.
        let tag: String
        /// The payload's type as written.
        let payload: String
    }

    let name: String
    let access: String?
    let tagKey: String
    let contentKey: String?
    var cases: [Case] = []
    /// The `@UnknownTag` case's name, when there is one.
    var fallback: String?
    /// Whether the enum is `Encodable` (then `encode(to:)` is written too).
    let encodes: Bool

    /// The `tag:` / `content:` arguments of `@Vetted`, or `nil` when there are none (a raw-value enum).
    static func keys(of attribute: AttributeSyntax) -> (tag: String?, content: String?, node: Syntax)? {
        guard case .argumentList(let arguments) = attribute.arguments, !arguments.isEmpty else { return nil }
        var tag: String?
        var content: String?
        for argument in arguments {
            let text = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            switch argument.label?.text {
            case "tag": tag = text
            case "content": content = text
            default: break
            }
        }
        return (tag, content, Syntax(arguments))
    }

    init?(_ declaration: EnumDeclSyntax, attribute: AttributeSyntax, in context: some MacroExpansionContext) {
        name = declaration.name.text
        guard let keys = Self.keys(of: attribute), let tagKey = keys.tag, !tagKey.isEmpty else {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.unionKeysNotLiteral))
            return nil
        }
        self.tagKey = tagKey
        contentKey = keys.content
        if let content = keys.content, content == tagKey || content.isEmpty {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.unionKeysNotLiteral))
            return nil
        }
        if declaration.genericParameterClause != nil {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.generic))
            return nil
        }
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        encodes = inherited.contains { ["Codable", "Encodable", "Swift.Codable", "Swift.Encodable"].contains($0) }
        if let first = inherited.first, ["String", "Swift.String", "Int", "Swift.Int"].contains(first) {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.unionCaseShape(name)))
            return nil
        }
        access = Model.accessLevel(declaration.modifiers)
        var failed = false
        var seen: [String: String] = [:]
        for member in declaration.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                context.diagnose(Diagnostic(node: initializer, message: VettedDiagnostic.enumOwnDecoder))
                return nil
            }
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            let tags = Model.attributes(named: "Tag", in: caseDecl.attributes)
            let unknown = !Model.attributes(named: "UnknownTag", in: caseDecl.attributes).isEmpty
            if (!tags.isEmpty || unknown) && caseDecl.elements.count != 1 {
                context.diagnose(Diagnostic(node: caseDecl, message: VettedDiagnostic.tagOnSeveralCases))
                failed = true
                continue
            }
            for element in caseDecl.elements {
                let caseName = element.name.text
                let parameters = element.parameterClause?.parameters
                guard let parameters, parameters.count == 1, let parameter = parameters.first, parameter.defaultValue == nil else {
                    context.diagnose(Diagnostic(node: element, message: VettedDiagnostic.unionCaseShape(caseName)))
                    failed = true
                    continue
                }
                let type = parameter.type.trimmedDescription
                if unknown {
                    guard tags.isEmpty, fallback == nil, type == "String" || type == "Swift.String" else {
                        context.diagnose(Diagnostic(node: element, message: VettedDiagnostic.unknownTagShape))
                        failed = true
                        continue
                    }
                    fallback = caseName
                    continue
                }
                var tag = caseName.hasPrefix("`") && caseName.hasSuffix("`") && caseName.count >= 2 ? String(caseName.dropFirst().dropLast()) : caseName
                if let attribute = tags.first {
                    guard tags.count == 1, case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
                        let text = arguments.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                    else {
                        context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.tagNotLiteral))
                        failed = true
                        continue
                    }
                    tag = text
                }
                if let other = seen[tag] {
                    context.diagnose(Diagnostic(node: tags.first.map(Syntax.init) ?? Syntax(element), message: VettedDiagnostic.duplicateTag(tag, other, caseName)))
                    failed = true
                    continue
                }
                seen[tag] = caseName
                cases.append(Case(name: caseName, tag: tag, payload: type))
            }
        }
        if cases.isEmpty && !failed {
            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.unionCaseShape(name)))
            failed = true
        }
        if failed { return nil }
    }

    /// The members: the (empty) rules, the walk `validate()` takes into the payload, the payload types' aliases.
    func members() -> [DeclSyntax] {
        let access = access.map { $0 + " " } ?? ""
        let key = contentKey.map(VettedMacro.literal) ?? "nil"
        var visits = cases.map { "    case .\($0.name)(let payload): visitor.visitPayload(payload, key: \(key))" }
        if let fallback { visits.append("    case .\(fallback): break") }
        var result: [DeclSyntax] = [
            "\(raw: access)static let validation = VettedRules.Validation<\(raw: name)> {}",
            """
            \(raw: access)func __vettedVisitFields(_ visitor: inout VettedMacros._VettedFieldVisitor) {
                switch self {
            \(raw: visits.joined(separator: "\n"))
                }
            }
            """,
        ]
        for (index, item) in cases.enumerated() {
            result.append("typealias __VettedPayload\(raw: index) = \(raw: item.payload)")
        }
        return result
    }

    /// The extensions: the model conformance, and decoding (and encoding) of the union.
    func extensions(for type: some TypeSyntaxProtocol) -> [ExtensionDeclSyntax] {
        let access = access.map { $0 + " " } ?? ""
        let tags = cases.map { VettedMacro.literal($0.tag) }.joined(separator: ", ")
        let payloads = cases.indices.map { "__VettedPayload\($0).self" }.joined(separator: ", ")
        var decodeCases = cases.enumerated().map { index, item in
            "        case \(index): self = .\(item.name)(try Self.__vettedUnion.payload(__VettedPayload\(index).self, from: decoder, container))"
        }
        decodeCases.append(
            fallback.map { "        default: self = .\($0)(try Self.__vettedUnion.unknownTagName(in: container))" }
                ?? "        default: throw Self.__vettedUnion.invalidCase()")
        var encoding = ""
        if encodes {
            var encodeCases = cases.map { item in
                "        case .\(item.name)(let payload): try Self.__vettedUnion.encode(payload, tag: \(VettedMacro.literal(item.tag)), to: encoder)"
            }
            if let fallback { encodeCases.append("        case .\(fallback)(let tag): try Self.__vettedUnion.encodeTag(tag, to: encoder)") }
            encoding = """

                    \(access)func encode(to encoder: any Encoder) throws {
                        switch self {
                \(encodeCases.joined(separator: "\n"))
                        }
                    }
                """
        }
        var readCases = cases.enumerated().map { index, item in
            "        case \(index): self = .\(item.name)(try __VettedPayload\(index)(__vetted: &source))"
        }
        // An unknown tag (the fallback's) is left to init(from:).
        readCases.append("        default: throw VettedDecoding._VettedDirectMiss()")
        let conformance: DeclSyntax = "extension \(type.trimmed): VettedMacros.VettedModel {}"
        let union: DeclSyntax = """
            extension \(type.trimmed): VettedDecoding._VettedUnion {
                \(raw: access)static let __vettedUnion = VettedDecoding._VettedUnionTable(
                    tag: \(raw: VettedMacro.literal(tagKey)), content: \(raw: contentKey.map(VettedMacro.literal) ?? "nil"), tags: [\(raw: tags)],
                    payloads: [\(raw: payloads)], fallback: \(raw: fallback == nil ? "false" : "true"))
                \(raw: access)init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: VettedDecoding._VettedKey.self)
                    switch try Self.__vettedUnion.caseIndex(in: container, of: decoder) {
            \(raw: decodeCases.joined(separator: "\n"))
                    }
                }
                \(raw: access)init<Source: VettedDecoding._VettedArraySource>(__vettedUnion source: inout Source) throws {
                    switch try source.beginUnion(Self.__vettedUnion) {
            \(raw: readCases.joined(separator: "\n"))
                    }
                    try source.endUnion(Self.__vettedUnion)
                }
            \(raw: VettedMacro.arrayReader(access: access, element: "            result.append(try Self(__vettedUnion: &source))"))\(raw: encoding)
            }
            """
        return [conformance, union].compactMap { $0.as(ExtensionDeclSyntax.self) }
    }
}

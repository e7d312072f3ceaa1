import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
import SwiftParser
import VettedCore
import VettedRules

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
        access = Model.accessLevel(declaration.modifiers)
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
        /// `@Default(…)`: the expression that stands in when the key is absent.
        var defaultExpression: String?
        /// `@Alias(…)`: the key's other spellings.
        var aliases: [String] = []
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

    /// `public` (for `public` and `open`), `package`, or `nil`: the access generated members take.
    static func accessLevel(_ modifiers: DeclModifierListSyntax) -> String? {
        modifiers.lazy.compactMap { modifier -> String? in
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): "public"
            case .keyword(.package): "package"
            default: nil
            }
        }.first
    }

    /// Whether the declaration group that encloses a macro's node is marked `@Vetted`.
    static func enclosedByVetted(_ context: some MacroExpansionContext) -> Bool {
        let enclosing = context.lexicalContext.first { $0.asProtocol((any DeclGroupSyntax).self) != nil }
        return enclosing?.asProtocol((any DeclGroupSyntax).self).map { hasVettedAttribute($0.attributes) } ?? false
    }

    static func hasVettedAttribute(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { element in
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "Vetted" || name == "VettedMacros.Vetted"
        }
    }

    static func checkAttributes(_ attributes: AttributeListSyntax) -> [AttributeSyntax] {
        Self.attributes(named: "Check", in: attributes)
    }

    /// The attributes `@name` / `@VettedMacros.name` of a declaration.
    static func attributes(named name: String, in list: AttributeListSyntax) -> [AttributeSyntax] {
        list.compactMap { element in
            guard case .attribute(let attribute) = element else { return nil }
            let spelled = attribute.attributeName.trimmedDescription
            return spelled == name || spelled == "VettedMacros." + name ? attribute : nil
        }
    }

    /// The attributes `@Vetted` reads on a property: none of them wraps it.
    static let propertyAttributes = ["Check", "Default", "Alias"]

    /// Whether any fields have `@Default` or `@Alias`: then `init(from:)` is generated too.
    var needsInitFromDecoder: Bool { coded.contains { $0.defaultExpression != nil || !$0.aliases.isEmpty } }

    /// Whether the type's body declares `CodingKeys`.
    var declaresCodingKeys = false
    /// Every stored instance property, in declaration order: the cases synthesized `CodingKeys` would have.
    var storedNames: [String] = []

    /// Whether `@Vetted` writes the type's `CodingKeys`: when it writes `init(from:)` (defaults,
    /// aliases), which reads the property names, and the body declares none. Keys the macro
    /// cannot see (`CodingKeys` in an extension) would otherwise be silently ignored by that
    /// `init(from:)`; with this member they are a compile error (`invalid redeclaration of
    /// 'CodingKeys'`), and synthesized `encode(to:)` writes the keys `init(from:)` reads.
    var writesCodingKeys: Bool { keepsInitFromDecoder == nil && needsInitFromDecoder && !declaresCodingKeys }

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
        access = Model.accessLevel(modifiers)

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
            declaresCodingKeys = true
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
        /// Where each `@Default` / `@Alias` sits, for diagnostics once every key is known.
        var spelledAt: [(node: AttributeSyntax, property: String)] = []
        for member in declaration.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "from"
            {
                keepsInitFromDecoder = "its own init(from:)"
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) })
                || variable.attributes.count > Self.propertyAttributes.reduce(0, { $0 + Self.attributes(named: $1, in: variable.attributes).count })
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
                if isStored { storedNames.append(propertyName) }
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
                let defaults = Self.attributes(named: "Default", in: variable.attributes)
                let aliasAttributes = Self.attributes(named: "Alias", in: variable.attributes)
                var defaultExpression: String?
                var aliases: [String] = []
                if let first = defaults.first ?? aliasAttributes.first {
                    if let problem = Self.shapeProblem(
                        defaults: defaults, aliases: aliasAttributes, isCoded: key != nil && isStored, isOptional: isOptional,
                        bindings: variable.bindings.count, name: propertyName)
                    {
                        context.diagnose(Diagnostic(node: first, message: problem))
                        failed = true
                        continue
                    }
                    if case .argumentList(let arguments) = defaults.first?.arguments, let value = arguments.first {
                        defaultExpression = value.expression.trimmedDescription
                    }
                    for attribute in aliasAttributes {
                        guard case .argumentList(let arguments) = attribute.arguments, !arguments.isEmpty else {
                            context.diagnose(Diagnostic(node: attribute, message: VettedDiagnostic.aliasNotLiteral))
                            failed = true
                            continue
                        }
                        for argument in arguments {
                            guard let literal = argument.expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue else {
                                context.diagnose(Diagnostic(node: argument, message: VettedDiagnostic.aliasNotLiteral))
                                failed = true
                                continue
                            }
                            aliases.append(text)
                        }
                    }
                    spelledAt.append((first, propertyName))
                }
                if let key, isStored {
                    coded.append(
                        Property(
                            name: propertyName, key: key, keyExpression: keyExpression(name: propertyName, key: key), valueType: valueType,
                            isOptional: isOptional, isArray: isArray && !elementType.isEmpty, elementType: elementType,
                            defaultExpression: defaultExpression, aliases: aliases))
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
        failed = diagnoseShapes(spelledAt, in: context) || failed
        if needsInitFromDecoder && keysFromCodingKeys {
            // With an init(from:) of its own, the type's CodingKeys are synthesized too late for the
            // expansion to name them: the keys are the property names they would hold.
            keysFromCodingKeys = false
            for index in coded.indices { coded[index].keyExpression = VettedMacro.literal(coded[index].key) }
            for index in checked.indices { checked[index].keyExpression = VettedMacro.literal(checked[index].key) }
        }
        if failed { return nil }
        if let codingKeys {
            // Synthesized init(from:) decodes in the order of CodingKeys' cases.
            coded = codingKeys.compactMap { key in coded.first { $0.name == key.name } }
        }
    }

    /// What is wrong with a property's `@Default` / `@Alias` where it sits, or `nil`.
    static func shapeProblem(
        defaults: [AttributeSyntax], aliases: [AttributeSyntax], isCoded: Bool, isOptional: Bool, bindings: Int, name: String
    ) -> VettedDiagnostic? {
        if bindings != 1 { return .severalBindings }
        if !isCoded { return .shapeNotDecoded(name) }
        if defaults.count > 1 { return .severalDefaults(name) }
        if let first = defaults.first {
            guard case .argumentList(let arguments) = first.arguments, arguments.count == 1 else { return .defaultArguments }
            if isOptional { return .defaultOnOptional(name) }
        }
        return nil
    }

    /// Checks what needs every field: generated decoding, keys and aliases each
    /// spelling one field, and literal defaults inside their literal ranges.
    /// Whether anything was wrong.
    func diagnoseShapes(_ places: [(node: AttributeSyntax, property: String)], in context: some MacroExpansionContext) -> Bool {
        guard let first = places.first else { return false }
        if let reason = keepsInitFromDecoder {
            context.diagnose(Diagnostic(node: first.node, message: VettedDiagnostic.shapeNeedsGeneratedDecoding(reason)))
            return true
        }
        var failed = false
        var owner: [String: String] = [:]
        for property in coded { owner[property.key] = property.name }
        for property in coded {
            for alias in property.aliases {
                if let other = owner[alias] {
                    let node = places.first { $0.property == property.name }?.node ?? first.node
                    context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.aliasTaken(alias, other)))
                    failed = true
                }
                owner[alias] = property.name
            }
        }
        for property in coded {
            guard let value = property.defaultExpression.flatMap({ Self.numberLiteral(ExprSyntax("\(raw: $0)")) }) else { continue }
            let checked = self.checked.first { $0.name == property.name }
            for case .field(let rule) in checked?.rules ?? [] {
                guard let bounds = Self.literalBounds(rule), value < bounds.lower || value > bounds.upper else { continue }
                let node = places.first { $0.property == property.name }?.node ?? first.node
                context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.defaultBreaksRule(property.name, property.defaultExpression ?? "", rule)))
                failed = true
            }
        }
        return failed
    }

    /// The bounds of `.range(a...b)` / `.range(a..<b)` / `.range(a...)` / `.range(...b)` / `.atLeast(a)` /
    /// `.atMost(b)` with number literals.
    static func literalBounds(_ rule: String) -> (lower: Double, upper: Double)? {
        let expression = ExprSyntax("\(raw: rule)")
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            member.base == nil, call.arguments.count == 1, let argument = call.arguments.first?.expression
        else { return nil }
        switch member.declName.baseName.text {
        case "atLeast":
            return numberLiteral(argument).map { ($0, .infinity) }
        case "atMost":
            return numberLiteral(argument).map { (-.infinity, $0) }
        case "range":
            if let open = argument.as(PostfixOperatorExprSyntax.self), open.operator.text == "..." {
                return numberLiteral(open.expression).map { ($0, .infinity) }
            }
            if let open = argument.as(PrefixOperatorExprSyntax.self), open.operator.text == "..." {
                return numberLiteral(open.expression).map { (-.infinity, $0) }
            }
            guard let sequence = argument.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
            let elements = Array(sequence.elements)
            guard let operatorToken = elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text,
                let lower = numberLiteral(elements[0]), let upper = numberLiteral(elements[2])
            else { return nil }
            if operatorToken == "..." { return (lower, upper) }
            if operatorToken == "..<" { return (lower, upper.nextDown) }
            return nil
        default:
            return nil
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
            guard !propertyAttributes.contains(name), !propertyAttributes.contains(where: { "VettedMacros." + $0 == name }), let first = name.split(separator: ".").last?.first, first.isUppercase else { continue }
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
            let element = arguments.first.flatMap({ TypeSyntax(Syntax($0.argument)) })
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
            let wrapped = arguments.first.flatMap({ TypeSyntax(Syntax($0.argument)) })
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

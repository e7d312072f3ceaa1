import SwiftDiagnostics
public import SwiftSyntax
public import SwiftSyntaxMacros

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
        if !Model.enclosedByVetted(context) {
            context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.checkOutsideVetted))
        }
        return []
    }
}

/// `@Default` and `@Alias`: like `@Check`, read by `@Vetted`, nothing of their own.
public struct ShapeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if !declaration.is(VariableDeclSyntax.self) || !Model.enclosedByVetted(context) {
            context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.shapeOutsideVetted))
        }
        return []
    }
}

/// `@Tag` and `@UnknownTag`: read by `@Vetted(tag:)` on the enclosing enum, nothing of their own.
public struct CaseTagMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let enclosing = context.lexicalContext.first { $0.is(EnumDeclSyntax.self) }?.as(EnumDeclSyntax.self)
        let isUnion = enclosing.map { enumeration in
            enumeration.attributes.contains { element in
                guard case .attribute(let attribute) = element else { return false }
                let name = attribute.attributeName.trimmedDescription
                return (name == "Vetted" || name == "VettedMacros.Vetted") && TaggedUnion.keys(of: attribute) != nil
            }
        } ?? false
        if !declaration.is(EnumCaseDeclSyntax.self) || !isUnion {
            context.diagnose(Diagnostic(node: node, message: VettedDiagnostic.tagOutsideUnion))
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

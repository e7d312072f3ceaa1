import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main struct VettedMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [VettedMacro.self, CheckMacro.self, ShapeMacro.self, CaseTagMacro.self]
}

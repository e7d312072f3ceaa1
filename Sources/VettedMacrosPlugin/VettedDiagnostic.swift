import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros
import SwiftParser
import VettedCore
import VettedRules

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
    case shapeNotDecoded(String)
    case severalDefaults(String)
    case defaultArguments
    case defaultOnOptional(String)
    case shapeNeedsGeneratedDecoding(String)
    case aliasNotLiteral
    case aliasTaken(String, String)
    case defaultBreaksRule(String, String, String)
    case unionKeysNotLiteral
    case unionCaseShape(String)
    case tagOnSeveralCases
    case unknownTagShape
    case tagNotLiteral
    case duplicateTag(String, String, String)
    case tagOutsideUnion
    case shapeOutsideVetted

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
        case .shapeNotDecoded(let name):
            "@Default and @Alias apply to a coded stored property; '\(name)' is never decoded, so they would never be used"
        case .severalDefaults(let name): "'\(name)' has more than one @Default"
        case .defaultArguments: "@Default takes one value: @Default(10)"
        case .defaultOnOptional(let name):
            "'\(name)' is optional, so an absent key already gives nil: declare it non-optional to give it a default, or drop @Default"
        case .shapeNeedsGeneratedDecoding(let reason):
            "@Default and @Alias need the decoding @Vetted generates, which this type does not get (\(reason)): they would be ignored"
        case .aliasNotLiteral: "@Alias takes one or more string literals: @Alias(\"productId\", \"product_id\")"
        case .aliasTaken(let alias, let other): "the key \"\(alias)\" already names '\(other)': each spelling may name one property"
        case .defaultBreaksRule(let name, let value, let rule):
            "the default \(value) of '\(name)' breaks its own rule \(rule): every document without the key would fail"
        case .unionKeysNotLiteral:
            "a tagged union names its keys with string literals: @Vetted(tag: \"type\") or @Vetted(tag: \"type\", content: \"data\"), two different keys"
        case .unionCaseShape(let name):
            "each case of a tagged union carries one @Vetted struct, its payload: '\(name)' does not (case \(name)(Payload))"
        case .tagOnSeveralCases: "@Tag and @UnknownTag apply to one case: declare it on its own line"
        case .unknownTagShape: "one case at most is @UnknownTag, with no @Tag, carrying the unknown tag: @UnknownTag case other(String)"
        case .tagNotLiteral: "@Tag takes one string literal: @Tag(\"listing.sold\")"
        case .duplicateTag(let tag, let first, let second):
            "the tag \"\(tag)\" selects both '\(first)' and '\(second)': each tag may select one case"
        case .tagOutsideUnion: "@Tag and @UnknownTag are read only by @Vetted(tag:) on the enclosing enum"
        case .shapeOutsideVetted: "@Default and @Alias are read only by @Vetted on the enclosing struct: mark it @Vetted, or they are never used"
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
        case .shapeNotDecoded: id = "shapeNotDecoded"
        case .severalDefaults: id = "severalDefaults"
        case .defaultArguments: id = "defaultArguments"
        case .defaultOnOptional: id = "defaultOnOptional"
        case .shapeNeedsGeneratedDecoding: id = "shapeNeedsGeneratedDecoding"
        case .aliasNotLiteral: id = "aliasNotLiteral"
        case .aliasTaken: id = "aliasTaken"
        case .defaultBreaksRule: id = "defaultBreaksRule"
        case .unionKeysNotLiteral: id = "unionKeysNotLiteral"
        case .unionCaseShape: id = "unionCaseShape"
        case .tagOnSeveralCases: id = "tagOnSeveralCases"
        case .unknownTagShape: id = "unknownTagShape"
        case .tagNotLiteral: id = "tagNotLiteral"
        case .duplicateTag: id = "duplicateTag"
        case .tagOutsideUnion: id = "tagOutsideUnion"
        case .shapeOutsideVetted: id = "shapeOutsideVetted"
        }
        return MessageID(domain: "VettedMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import VettedCore
package import VettedRules

/// What every Vetted decoder is set with, besides its format's own options:
/// defined once for `VettedJSONDecoder` and `VettedPropertyListDecoder`, whose
/// `Options` reach these members by name (`options.limits`). A decoder keeps
/// its options under one lock and reads them once per call.
package struct DecodingOptions: Sendable {
    /// Values for the types' `init(from:)`, as `decoder.userInfo`.
    package var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    package var limits = Limits()
    /// Repeated keys: rejected by default (Foundation keeps one silently).
    package var duplicateKeyPolicy: DuplicateKeyPolicy = .reject
    package var validationMode: ValidationMode = .collect
    /// The app's wording of rule violations, or `nil` for Vetted's English.
    package var messageProvider: RuleMessageProvider?

    package init() {}

    /// These options with `userInfo` added, for one call (a framework's per-request values).
    package func adding(userInfo added: [CodingUserInfoKey: any Sendable]) -> DecodingOptions {
        var options = self
        options.userInfo.merge(added) { $1 }
        return options
    }

    /// One call's rule engine: its mode and wording.
    package func makeEngine() -> RuleEngine { RuleEngine(mode: validationMode, messages: messageProvider) }

    /// One call's stack budget.
    package func makeStackGuard() -> StackGuard { StackGuard(budget: limits.maxStackBytes) }
}

/// A decoder's options: the shared ones, reached by name, and its format's own.
@dynamicMemberLookup
package protocol DecoderOptions: Sendable {
    var shared: DecodingOptions { get set }
}

extension DecoderOptions {
    package subscript<Value>(dynamicMember member: WritableKeyPath<DecodingOptions, Value>) -> Value {
        get { shared[keyPath: member] }
        set { shared[keyPath: member] = newValue }
    }
}

import VettedCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The structural errors one decode call collects under `.collect` (``RuleEngine/recover(_:)``):
// a document that does not fit its model in several places is one located error per place.

/// The structural errors a call recorded: the first as the call throws it, the later ones
/// located, those past the cap counted.
struct StructuralRecord {
    /// The first, located: the error the call throws, and the one fail-fast gives.
    private var first: DecodingError?
    private var others: [VettedError] = []
    private var omitted = 0

    var isEmpty: Bool { first == nil }

    /// Records `error`, located now (while the decoder can still say where), keeping at most
    /// `cap` errors (at least the first).
    mutating func record(_ error: DecodingError, keeping cap: Int, locate: ([any CodingKey]) -> ValueLocation?) {
        guard first != nil else {
            first = error.located(by: locate)
            return
        }
        guard others.count + 1 < Swift.max(cap, 1), let located = error.located(by: locate).vettedError else {
            omitted += 1
            return
        }
        others.append(located)
    }

    /// What the call throws: the first error's `DecodingError`, its located error carrying the
    /// others (``VettedCore/VettedError/others``); `nil` when nothing was recorded.
    var failure: DecodingError? {
        first.map { $0.carrying(others: others, omitted: omitted) }
    }
}


/// What a generated body or an array throws when it ended after recording structural
/// errors in the call's ``RuleEngine`` (``RuleEngine/recover(_:)``): the errors are the
/// engine's, and the call throws them when it finishes.
package struct RecordedErrors: Error {
    package init() {}
}

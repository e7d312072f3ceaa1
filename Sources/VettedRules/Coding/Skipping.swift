import VettedCore

/// An array decoded element by element, keeping the elements that decode and
/// pass their rules and setting the others aside with their errors: the
/// talk's lenient client. Works in every validation mode, with both decoders
/// (with another decoder, only elements that fail to decode are skipped).
///
/// ```swift
/// let page = try decoder.decode(Skipping<Listing>.self, from: data)
/// show(page.values)
/// for skipped in page.skipped { log("listing \(skipped.index): \(skipped.error)") }
/// ```
public struct Skipping<Element: Decodable>: Decodable {
    /// An element set aside: its index in the array and why.
    public struct Skipped: Sendable {
        public let index: Int
        /// A `DecodingError`, ``ValidationErrors``, or what the element's own `init(from:)` threw.
        public let error: any Error
    }

    public var values: [Element] = []
    public var skipped: [Skipped] = []

    /// - Throws: `DecodingError` when the value is not an array; `VettedError` for a rule declared wrong (`code.isRuleDeclaration`). An element that fails otherwise is kept in ``skipped``.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let engine = (decoder as? any RuleEngineDecoder)?.ruleEngine
        while !container.isAtEnd {
            let index = container.currentIndex
            let mark = engine?.mark
            do {
                let value = try container.decode(Element.self)
                if let engine, let mark {
                    let found = engine.takeViolations(since: mark)
                    if !found.errors.isEmpty || found.omitted > 0 {
                        skipped.append(Skipped(index: index, error: ValidationErrors(errors: found.errors, omitted: found.omitted)))
                        continue
                    }
                }
                values.append(value)
            } catch let error as VettedError where error.code.isRuleDeclaration {
                throw error  // a programmer's error, never an element to skip
            } catch {
                var error = error
                if let engine, let mark {
                    // The element is refused by its structural failure, as a whole decode
                    // would be: violations found in it before are dropped with it.
                    _ = engine.takeViolations(since: mark)
                    error = engine.located(error)
                }
                skipped.append(Skipped(index: index, error: error))
                // Step over the element (a value that decodes from anything).
                _ = try container.decode(Passed.self)
            }
        }
    }

    /// Decodes from any value without reading it.
    private struct Passed: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import VettedCore

// A failing value is what an attacker sends, once per element: each rule's message is made
// once, when the rule is, and an `Int`'s excerpt without a cast through `Any`.

extension Rule where Value: Comparable & Sendable {
    /// `value` lies in `range`.
    public static func range(_ range: ClosedRange<Value>) -> Rule {
        let parameters = rangeParameters(range)
        let message = "must be between \(range.lowerBound) and \(range.upperBound)"
        return Rule(describedAs: RuleDescriptor("range", parameters)) { value in
            range.contains(value) ? nil : RuleViolation(.outOfRange, message, value: value, parameters: parameters)
        }
    }

    /// `value` is at least `minimum`.
    public static func atLeast(_ minimum: Value) -> Rule {
        let parameters: [String: RuleParameter] = ["minimum": .bound(minimum)]
        let message = "must be at least \(minimum)"
        return Rule(describedAs: RuleDescriptor("range", parameters)) { value in
            value >= minimum ? nil : RuleViolation(.outOfRange, message, value: value, parameters: parameters)
        }
    }

    /// `value` is at most `maximum`.
    public static func atMost(_ maximum: Value) -> Rule {
        let parameters: [String: RuleParameter] = ["maximum": .bound(maximum)]
        let message = "must be at most \(maximum)"
        return Rule(describedAs: RuleDescriptor("range", parameters)) { value in
            value <= maximum ? nil : RuleViolation(.outOfRange, message, value: value, parameters: parameters)
        }
    }

    /// `value` lies in `range`, open above: `.range(1...)` is ``atLeast(_:)``.
    public static func range(_ range: PartialRangeFrom<Value>) -> Rule { atLeast(range.lowerBound) }

    /// `value` lies in `range`, open below: `.range(...100)` is ``atMost(_:)``.
    public static func range(_ range: PartialRangeThrough<Value>) -> Rule { atMost(range.upperBound) }
}

extension Rule where Value == Int {
    /// `value` lies in `range`: the same rule as the generic one, compiled for
    /// `Int` so that a check does no generic work (the common case).
    public static func range(_ range: ClosedRange<Int>) -> Rule {
        let parameters: [String: RuleParameter] = ["minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound)]
        let message = "must be between \(range.lowerBound) and \(range.upperBound)"
        return Rule(describedAs: RuleDescriptor("range", parameters)) { value in
            range.contains(value) ? nil : RuleViolation(.outOfRange, message, integer: value, parameters: parameters)
        }
    }
}

func rangeParameters<Value>(_ range: ClosedRange<Value>) -> [String: RuleParameter] {
    ["minimum": .bound(range.lowerBound), "maximum": .bound(range.upperBound)]
}

/// The units a length rule counts, as its descriptor and violations name them.
enum LengthUnit: String {
    case characters, unicodeScalars, utf8Bytes, elements

    /// The singular noun of messages.
    var noun: String {
        switch self {
        case .characters: "character"
        case .unicodeScalars: "Unicode scalar"
        case .utf8Bytes: "UTF-8 byte"
        case .elements: "element"
        }
    }

    func parameters(_ range: ClosedRange<Int>) -> [String: RuleParameter] {
        ["unit": .string(rawValue), "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound)]
    }
}

extension Rule where Value == String {
    /// Length in characters (grapheme clusters, as a person counts them).
    public static func length(_ range: ClosedRange<Int>) -> Rule {
        Rule(describedAs: RuleDescriptor("length", LengthUnit.characters.parameters(range))) { value in
            // Every character has at least one UTF-8 byte, so a byte count within the upper
            // bound settles it without counting grapheme clusters (which is slow).
            let bytes = value.utf8.count
            if bytes <= range.upperBound, range.lowerBound <= 0 || (range.lowerBound == 1 && bytes > 0) { return nil }
            return lengthViolation(value.count, range, unit: .characters, value: value)
        }
    }

    /// Length in Unicode scalars (code points, as JSON Schema's `minLength` and
    /// `maxLength` count them): the length rule a schema states exactly.
    public static func scalarLength(_ range: ClosedRange<Int>) -> Rule {
        Rule(describedAs: RuleDescriptor("length", LengthUnit.unicodeScalars.parameters(range))) { value in
            // Each scalar has one to four UTF-8 bytes: the byte count bounds the scalar count.
            let bytes = value.utf8.count
            if bytes <= range.upperBound && bytes / 4 >= range.lowerBound { return nil }
            return lengthViolation(value.unicodeScalars.count, range, unit: .unicodeScalars, value: value)
        }
    }

    /// Length in UTF-8 bytes (as storage and wire formats count them).
    public static func utf8Length(_ range: ClosedRange<Int>) -> Rule {
        Rule(describedAs: RuleDescriptor("length", LengthUnit.utf8Bytes.parameters(range))) { value in
            lengthViolation(value.utf8.count, range, unit: .utf8Bytes, value: value)
        }
    }

    /// Not empty, and not only whitespace.
    public static var nonBlank: Rule {
        Rule(describedAs: RuleDescriptor("nonBlank")) { value in
            value.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? RuleViolation(.empty, "must not be empty or blank") : nil
        }
    }

    /// One of `allowed`, exactly.
    public static func oneOf(_ allowed: Set<String>) -> Rule {
        let sorted = allowed.sorted()
        let list = sorted.joined(separator: ", ")
        let parameters: [String: RuleParameter] = ["allowed": .list(sorted.map(RuleParameter.string))]
        let message = "must be one of \(list)"
        return Rule(describedAs: RuleDescriptor("oneOf", parameters)) { value in
            allowed.contains(value) ? nil : RuleViolation(.notAllowed, message, string: value, parameters: parameters)
        }
    }

    /// Matches the pattern `source` entirely (see ``pattern(_:maximumLength:)-(LinearPattern,_)``).
    /// A source that does not compile is a declaration error, never bad data: `@Check`
    /// refuses a literal one at compile time; otherwise decoding throws `invalidPattern`
    /// (naming the compile error) in every mode, even inside `Skipping`, and
    /// ``Validation/checkDeclarations(of:)`` reports it without any value.
    public static func pattern(_ source: String, maximumLength: Int = 1_024) -> Rule {
        do {
            return pattern(try LinearPattern(source), maximumLength: maximumLength)
        } catch {
            return Rule(misdeclared: VettedError(code: .invalidPattern, message: "the rule's pattern does not compile: \(error.message)"))
        }
    }

    /// Matches `pattern` entirely, in time linear in the input (see ``LinearPattern``);
    /// inputs longer than `maximumLength` are refused before matching.
    public static func pattern(_ pattern: LinearPattern, maximumLength: Int = 1_024) -> Rule {
        let parameters: [String: RuleParameter] = ["pattern": .string(pattern.source), "maximumLength": .integer(maximumLength)]
        let mismatch = "must match \(pattern.source)"
        let mismatchParameters: [String: RuleParameter] = ["pattern": .string(pattern.source)]
        return Rule(describedAs: RuleDescriptor("pattern", parameters)) { value in
            guard value.utf8.count <= maximumLength else {
                return RuleViolation(
                    .tooLong, "must be at most \(maximumLength) bytes to be matched", string: value,
                    parameters: ["unit": .string(LengthUnit.utf8Bytes.rawValue), "maximum": .integer(maximumLength)])
            }
            return pattern.matches(value) ? nil : RuleViolation(.patternMismatch, mismatch, string: value, parameters: mismatchParameters)
        }
    }
}

extension Rule where Value: Collection & Sendable {
    /// Not empty.
    public static var nonEmpty: Rule {
        Rule(describedAs: RuleDescriptor("nonEmpty")) { value in value.isEmpty ? RuleViolation(.empty, "must not be empty") : nil }
    }

    /// Number of elements in `range`.
    public static func count(_ range: ClosedRange<Int>) -> Rule {
        Rule(describedAs: RuleDescriptor("count", ["minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound)])) { value in
            lengthViolation(value.count, range, unit: .elements, value: nil as Int?)
        }
    }

    /// Every element passes `rule`; the first failure is reported at its element (`$.tags[1]`).
    public static func each(_ rule: Rule<Value.Element>) -> Rule {
        Rule(
            { value in
                for (index, element) in value.enumerated() {
                    if let violation = rule.check(element) { return violation.inside(.index(index)) }
                }
                return nil
            }, declarationError: rule.declarationError, descriptors: [RuleDescriptor("each", element: rule.descriptors)])
    }
}

extension Rule where Value: Collection & Sendable, Value.Element: Hashable {
    /// No element appears twice.
    public static var unique: Rule {
        Rule(describedAs: RuleDescriptor("unique")) { value in
            var seen = Set<Value.Element>()
            for (index, element) in value.enumerated() where !seen.insert(element).inserted {
                return RuleViolation(.notUnique, "element \(index) repeats an earlier one", parameters: ["index": .integer(index)])
            }
            return nil
        }
    }
}

extension Rule where Value == Date {
    /// Not before `earliest`, and not after now plus `skew` (default five minutes).
    public static func within(notBefore earliest: Date, notAfterNowPlus skew: TimeInterval = 300) -> Rule {
        let notBefore = RuleParameter.bound(earliest)
        let parameters: [String: RuleParameter] = ["notBefore": notBefore, "notAfterNowPlusSeconds": .number(skew)]
        return Rule(describedAs: RuleDescriptor("dateWithin", parameters)) { value in
            // NaN passes `<` and `>` both ways: refused first.
            guard value.timeIntervalSinceReferenceDate.isFinite else { return RuleViolation(.nonFiniteDate, "must be a finite date") }
            if value < earliest {
                return RuleViolation(.tooEarly, "must not be before \(earliest)", value: value, parameters: ["notBefore": notBefore])
            }
            if value > Date().addingTimeInterval(skew) {
                return RuleViolation(
                    .tooLate, "must not be in the future", value: value, parameters: ["notAfterNowPlusSeconds": .number(skew)])
            }
            return nil
        }
    }
}

func lengthViolation(_ length: Int, _ range: ClosedRange<Int>, unit: LengthUnit, value: Any?) -> RuleViolation? {
    // The parameters are made only for a violation: this runs for every value checked.
    if length < range.lowerBound {
        if length == 0 { return RuleViolation(.empty, "must not be empty", parameters: unit.parameters(range)) }
        return RuleViolation(
            .tooShort, "must have at least \(range.lowerBound) \(unit.noun)\(range.lowerBound == 1 ? "" : "s")", value: value,
            parameters: unit.parameters(range))
    }
    if length > range.upperBound {
        return RuleViolation(
            .tooLong, "must have at most \(range.upperBound) \(unit.noun)\(range.upperBound == 1 ? "" : "s")", value: value,
            parameters: unit.parameters(range))
    }
    return nil
}

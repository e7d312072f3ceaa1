#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import VettedCore

extension Rule where Value: Comparable & Sendable {
    /// `value` lies in `range`.
    public static func range(_ range: ClosedRange<Value>) -> Rule {
        Rule { value in range.contains(value) ? nil : rangeViolation(range, value) }
    }

    /// `value` is at least `minimum`.
    public static func atLeast(_ minimum: Value) -> Rule {
        Rule { value in value >= minimum ? nil : RuleViolation(.outOfRange, "must be at least \(minimum)", value: value) }
    }
}

extension Rule where Value == Int {
    /// `value` lies in `range`: the same rule as the generic one, compiled for
    /// `Int` so that a check does no generic work (the common case).
    public static func range(_ range: ClosedRange<Int>) -> Rule {
        Rule { value in range.contains(value) ? nil : rangeViolation(range, value) }
    }
}

func rangeViolation<Value>(_ range: ClosedRange<Value>, _ value: Value) -> RuleViolation {
    RuleViolation(.outOfRange, "must be between \(range.lowerBound) and \(range.upperBound)", value: value)
}

extension Rule where Value == String {
    /// Length in characters (grapheme clusters, as a person counts them).
    public static func length(_ range: ClosedRange<Int>) -> Rule {
        Rule { value in
            // Every character has at least one UTF-8 byte, so a byte count within the upper
            // bound settles it without counting grapheme clusters (which is slow).
            let bytes = value.utf8.count
            if bytes <= range.upperBound, range.lowerBound <= 0 || (range.lowerBound == 1 && bytes > 0) { return nil }
            return lengthViolation(value.count, range, unit: "character", value: value)
        }
    }

    /// Length in UTF-8 bytes (as storage and wire formats count them).
    public static func utf8Length(_ range: ClosedRange<Int>) -> Rule {
        Rule { value in lengthViolation(value.utf8.count, range, unit: "UTF-8 byte", value: value) }
    }

    /// Not empty, and not only whitespace.
    public static var nonBlank: Rule {
        Rule { value in
            value.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? RuleViolation(.empty, "must not be empty or blank") : nil
        }
    }

    /// One of `allowed`, exactly.
    public static func oneOf(_ allowed: Set<String>) -> Rule {
        let list = allowed.sorted().joined(separator: ", ")
        return Rule { value in allowed.contains(value) ? nil : RuleViolation(.notAllowed, "must be one of \(list)", value: value) }
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
        Rule { value in
            guard value.utf8.count <= maximumLength else {
                return RuleViolation(.tooLong, "must be at most \(maximumLength) bytes to be matched", value: value)
            }
            return pattern.matches(value) ? nil : RuleViolation(.patternMismatch, "must match \(pattern.source)", value: value)
        }
    }
}

extension Rule where Value: Collection & Sendable {
    /// Not empty.
    public static var nonEmpty: Rule {
        Rule { value in value.isEmpty ? RuleViolation(.empty, "must not be empty") : nil }
    }

    /// Number of elements in `range`.
    public static func count(_ range: ClosedRange<Int>) -> Rule {
        Rule { value in lengthViolation(value.count, range, unit: "element", value: nil as Int?) }
    }

    /// Every element passes `rule`; the first failure is reported at its element (`$.tags[1]`).
    public static func each(_ rule: Rule<Value.Element>) -> Rule {
        Rule(
            { value in
                for (index, element) in value.enumerated() {
                    if let violation = rule.check(element) { return violation.inside(.index(index)) }
                }
                return nil
            }, declarationError: rule.declarationError)
    }
}

extension Rule where Value: Collection & Sendable, Value.Element: Hashable {
    /// No element appears twice.
    public static var unique: Rule {
        Rule { value in
            var seen = Set<Value.Element>()
            for (index, element) in value.enumerated() where !seen.insert(element).inserted {
                return RuleViolation(.notUnique, "element \(index) repeats an earlier one")
            }
            return nil
        }
    }
}

extension Rule where Value == Date {
    /// Not before `earliest`, and not after now plus `skew` (default five minutes).
    public static func within(notBefore earliest: Date, notAfterNowPlus skew: TimeInterval = 300) -> Rule {
        Rule { value in
            // NaN passes `<` and `>` both ways: refused first.
            guard value.timeIntervalSinceReferenceDate.isFinite else { return RuleViolation(.nonFiniteDate, "must be a finite date") }
            if value < earliest { return RuleViolation(.tooEarly, "must not be before \(earliest)", value: value) }
            if value > Date().addingTimeInterval(skew) { return RuleViolation(.tooLate, "must not be in the future", value: value) }
            return nil
        }
    }
}

func lengthViolation(_ length: Int, _ range: ClosedRange<Int>, unit: String, value: Any?) -> RuleViolation? {
    if length < range.lowerBound {
        if length == 0 { return RuleViolation(.empty, "must not be empty") }
        return RuleViolation(.tooShort, "must have at least \(range.lowerBound) \(unit)\(range.lowerBound == 1 ? "" : "s")", value: value)
    }
    if length > range.upperBound {
        return RuleViolation(.tooLong, "must have at most \(range.upperBound) \(unit)\(range.upperBound == 1 ? "" : "s")", value: value)
    }
    return nil
}

import Foundation
import Testing
@testable import VettedRules
import VettedCore

/// `RelationCheck.outcome`: the one relation check every path runs (the engine, the byte
/// reader, a model's `validate()`): the values by the position of their keys.
@Suite struct RelationOutcomeTests {
    let later = Relation("updated", after: "created", as: Int.self)

    @Test func aPairIsCheckedOnItsTwoValues() throws {
        #expect(later.outcome({ [5, 3][$0] }).map(\.isPassed) == true)
        let violation = try #require(later.outcome({ [3, 5][$0] })?.violation)
        #expect(violation.code == .relationViolated)
    }

    @Test func anAbsentValueRunsNoRelation() {
        #expect(later.outcome({ $0 == 0 ? 5 : nil }) == nil)
        let custom = RelationCheck(keys: ["a", "b"], reportedAt: "a") { _ in
            Issue.record("a relation ran on an absent value")
            return nil
        }
        #expect(custom.outcome({ $0 == 0 ? 1 : nil }) == nil)
    }

    @Test func aValueOfAnotherTypeIsToldFromOneThatPasses() {
        #expect(later.outcome({ ["5", "3"][$0] }).map(\.isWrongType) == true)
    }

    @Test func aCustomRelationGetsItsValuesByKey() throws {
        let sum = RelationCheck(keys: ["a", "b", "c"], reportedAt: "c") { values in
            let total = ["a", "b"].compactMap { values[$0] as? Int }.reduce(0, +)
            return total == values["c"] as? Int ? nil : RuleViolation(.relationViolated, "c is not a + b", value: "")
        }
        #expect(sum.outcome({ [1, 2, 3][$0] }).map(\.isPassed) == true)
        #expect(try #require(sum.outcome({ [1, 2, 4][$0] })?.violation).code == .relationViolated)
    }
}

extension CheckOutcome {
    fileprivate var isPassed: Bool {
        if case .passed = self { return true }
        return false
    }
    fileprivate var isWrongType: Bool {
        if case .wrongType = self { return true }
        return false
    }
}

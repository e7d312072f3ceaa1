import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedRules

/// NaN and infinite dates pass every comparison (all are false): refused where dates are made and checked.
@Suite struct NonFiniteDateTests {
    struct Stamp: Codable { var when: Date }

    @Test(arguments: ["NaN", "+Inf", "-Inf"])
    func nonConformingSecondsAreNotDates(text: String) throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        do {
            _ = try decoder.decode(Stamp.self, from: Data("{\"when\": \"\(text)\"}".utf8))
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["when"])
            #expect((context.underlyingError as? VettedError)?.code == .nonFiniteDate)
        }
    }

    @Test func dateRulesRefuseNonFiniteDates() {
        let rule: Rule<Date> = .within(notBefore: Date(timeIntervalSince1970: 0))
        for seconds in [Double.nan, .infinity, -.infinity] {
            #expect(rule.check(Date(timeIntervalSinceReferenceDate: seconds))?.code == .nonFiniteDate)
        }
        #expect(rule.check(Date(timeIntervalSince1970: 100)) == nil)
        // Numeric ranges already refuse NaN (`contains` is false).
        #expect(Rule<Double>.range(0...1).check(.nan)?.code == .outOfRange)
        #expect(Rule<Double>.atLeast(0).check(.nan)?.code == .outOfRange)
    }
}

import Foundation
import Testing
import VettedMacros
import VettedTestSupport

/// Violations keep their parameters through both decoders, and an app words them.
@Suite struct RuleMessagesTests {
    static let document = #"""
        {"id": 0, "name": "Guitar", "description": "Fine", "price": "12", "sold": false, "url": "https://example.com/1",
         "tags": ["music"], "created": 10, "last_updated": 5}
        """#

    static let german: RuleMessageProvider = { code, parameters in
        switch code {
        case .outOfRange: "Muss zwischen \(parameters["minimum"]?.description ?? "?") und \(parameters["maximum"]?.description ?? "?") liegen."
        default: nil
        }
    }

    @Test func jsonViolationsCarryParametersAndTheAppsWords() throws {
        let decoder = VettedJSONDecoder()
        decoder.messageProvider = Self.german
        let failure = VettedFailure(try #require(throws: ValidationErrors.self) { try decoder.decode(Listing.self, from: Data(Self.document.utf8)) })
        #expect(failure.errors.map(\.code) == [.outOfRange, .relationViolated])
        #expect(failure.errors.map(\.path.description) == ["$.id", "$.last_updated"])
        let id = failure.errors[0]
        #expect(id.offset == 7)
        #expect(id.parameters == ["minimum": .integer(1), "maximum": .integer(2_147_483_647)])
        #expect(id.message == "Muss zwischen 1 und 2147483647 liegen.")
        // Not in the provider: Vetted's English, parameters kept.
        let relation = failure.errors[1]
        #expect(relation.message == "must not be before created")
        #expect(relation.parameters == ["other": .string("created"), "direction": .string("notBefore")])
    }

    @Test func plistViolationsCarryParametersAndTheAppsWords() throws {
        let listing = Listing(
            id: 0, name: "Guitar", description: "Fine", price: "12.345", sold: false, url: "https://example.com/1", tags: [.music],
            created: Date(timeIntervalSinceReferenceDate: 10), lastUpdated: Date(timeIntervalSinceReferenceDate: 20))
        let data = try PropertyListEncoder().encode(listing)
        let decoder = VettedPropertyListDecoder()
        decoder.messageProvider = Self.german
        let failure = VettedFailure(try #require(throws: ValidationErrors.self) { try decoder.decode(Listing.self, from: data) })
        #expect(failure.errors.map(\.code) == [.outOfRange, .patternMismatch])
        #expect(failure.errors.map(\.path.description) == ["$.id", "$.price"])
        #expect(failure.errors[0].message == "Muss zwischen 1 und 2147483647 liegen.")
        #expect(failure.errors[1].parameters == ["pattern": .string(Listing.pricePattern)])
        #expect(failure.errors[1].message == "must match \(Listing.pricePattern)")
    }

    /// Fail-fast throws the first violation, in the app's words too.
    @Test func failFastUsesTheProvider() throws {
        let decoder = VettedJSONDecoder()
        decoder.validationMode = .failFast
        decoder.messageProvider = Self.german
        let failure = VettedFailure(try #require(throws: ValidationErrors.self) { try decoder.decode(Listing.self, from: Data(Self.document.utf8)) })
        #expect(failure.errors.map(\.code) == [.outOfRange])
        #expect(failure.errors.first?.message == "Muss zwischen 1 und 2147483647 liegen.")
    }

    /// A value made in code, checked with the same words.
    @Test func validateUsesTheProvider() throws {
        let listing = Listing(
            id: 0, name: "Guitar", description: "Fine", price: "12", sold: false, url: "https://example.com/1", tags: [.music],
            created: Date(timeIntervalSinceReferenceDate: 10), lastUpdated: Date(timeIntervalSinceReferenceDate: 20))
        let errors = #expect(throws: ValidationErrors.self) { try listing.validate(messages: Self.german) }
        #expect(errors?.errors.map(\.message) == ["Muss zwischen 1 und 2147483647 liegen."])
        #expect(errors?.errors.first?.parameters == ["minimum": .integer(1), "maximum": .integer(2_147_483_647)])
    }
}

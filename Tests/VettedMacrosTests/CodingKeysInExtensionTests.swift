import Foundation
import Testing
import VettedCore
import VettedJSON
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedPlist

/// `CodingKeys` declared in an extension of the same file: the macro cannot see it, so its
/// generated code spells every key as `CodingKeys.name.stringValue`, as synthesized decoding does.
@Vetted struct Account: Codable, Equatable {
    @Check(.range(1...1_000)) var userID: Int
    @Check(.length(1...20)) var displayName: String
    var joined: Double
    @Check(.notBefore(\Account.joined)) var lastSeen: Double
}

extension Account {
    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case displayName = "display_name"
        case joined
        case lastSeen = "last_seen"
    }
}

@Suite struct CodingKeysInExtensionTests {
    static let document = #"{"user_id": 50, "display_name": "Ann", "joined": 1, "last_seen": 2}"#
    static let value = Account(userID: 50, displayName: "Ann", joined: 1, lastSeen: 2)

    @Test func theExtensionsKeysAreUsedByEveryPath() throws {
        let decoder = VettedJSONDecoder()
        #expect(decoder.decodesDirectly(Account.self, from: Data(Self.document.utf8)))
        #expect(try decoder.decode(Account.self, from: Data(Self.document.utf8)) == Self.value)
        decoder.directDecoding = false
        #expect(try decoder.decode(Account.self, from: Data(Self.document.utf8)) == Self.value)
        #expect(try JSONDecoder().decode(Account.self, from: Data(Self.document.utf8)) == Self.value)
        let plist = try PropertyListEncoder().encode(Self.value)
        #expect(try VettedPropertyListDecoder().decode(Account.self, from: plist) == Self.value)
    }

    @Test func rulesAndRelationsAreReportedAtTheExtensionsKeys() throws {
        let bad = #"{"user_id": 5000, "display_name": "Ann", "joined": 3, "last_seen": 2}"#
        for direct in [true, false] {
            let decoder = VettedJSONDecoder()
            decoder.directDecoding = direct
            let error = #expect(throws: ValidationErrors.self) { try decoder.decode(Account.self, from: Data(bad.utf8)) }
            #expect(error?.errors.map(\.code) == [.outOfRange, .relationViolated])
            #expect(error?.errors.map(\.path.description) == ["$.user_id", "$.last_seen"])
        }
        let built = Account(userID: 5000, displayName: "Ann", joined: 3, lastSeen: 2)
        let error = #expect(throws: ValidationErrors.self) { try built.validate() }
        #expect(error?.errors.map(\.path.description) == ["$.user_id", "$.last_seen"])
    }
}

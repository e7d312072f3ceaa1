import Foundation
import Testing
import VettedCore
import VettedPlist
import VettedTestSupport

/// `decode(_:from: PlistValue)` decodes the value itself (no bytes are written
/// and read back), held to what a reader holds bytes to that a value can
/// still break: nesting depth and repeated keys.
@Suite struct PlistValueDecodingTests {
    struct Pair: Codable, Equatable { var a: Int }
    struct Box: Codable, Equatable { var list: [Pair] }

    /// `{"list": [{"a": 1}, {"a": 2, "a": 3}]}`: the repeat is in the second element.
    static let repeatedInside = PlistValue.dictionary([
        "list": .array([
            .dictionary(["a": .integer(.signed(1))]),
            .dictionary(PlistDictionary([.init(key: "a", value: .integer(.signed(2))), .init(key: "a", value: .integer(.signed(3)))])),
        ])
    ])

    private static func underlying(_ body: () throws -> Void) -> VettedError? {
        do {
            try body()
        } catch DecodingError.dataCorrupted(let context) {
            return context.underlyingError as? VettedError
        } catch {
            Issue.record("expected dataCorrupted, got \(error)")
        }
        return nil
    }

    @Test func aRepeatedKeyIsRejectedAtItsPath() {
        let error = Self.underlying { _ = try VettedPropertyListDecoder().decode(Box.self, from: Self.repeatedInside) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.path == [.key("list"), .index(1), .key("a")])
        #expect(error?.offset == nil)
    }

    @Test func aKeepingPolicyKeepsWhatTheReadersKeep() throws {
        let decoder = VettedPropertyListDecoder()
        decoder.duplicateKeyPolicy = .keepFirst
        #expect(try decoder.decode(Box.self, from: Self.repeatedInside) == Box(list: [Pair(a: 1), Pair(a: 2)]))
        decoder.duplicateKeyPolicy = .keepLast
        #expect(try decoder.decode(Box.self, from: Self.repeatedInside) == Box(list: [Pair(a: 1), Pair(a: 3)]))
        // The same as the bytes give.
        let bytes = PlistWriter.binary(Self.repeatedInside)
        #expect(try decoder.decode(Box.self, from: bytes) == Box(list: [Pair(a: 1), Pair(a: 3)]))
    }

    @Test func nestingDeeperThanTheLimitIsRejected() {
        var value = PlistValue.array([])
        for _ in 0..<5 { value = .array([value]) }  // six levels
        let decoder = VettedPropertyListDecoder()
        decoder.limits.maxDepth = 4
        let error = Self.underlying { _ = try decoder.decode([[[[[[Int]]]]]].self, from: value) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path == [.index(0), .index(0), .index(0), .index(0)])
        decoder.limits.maxDepth = 6
        #expect(throws: Never.self) { _ = try decoder.decode([[[[[[Int]]]]]].self, from: value) }
    }

    /// Nothing is written out: a value bytes could not carry under the limits
    /// (a string over `maxStringBytes`) is already in memory, and decodes.
    @Test func sizeLimitsDoNotApplyToAValueInMemory() throws {
        let decoder = VettedPropertyListDecoder()
        decoder.limits.maxStringBytes = 4
        let long = String(repeating: "x", count: 100)
        #expect(try decoder.decode([String].self, from: .array([.string(long)])) == [long])
        // From bytes, the same string is over the limit.
        let error = Self.underlying { _ = try decoder.decode([String].self, from: PlistWriter.binary(.array([.string(long)]))) }
        #expect(error?.code == .stringLengthLimitExceeded)
    }

    /// Violations are reported at their path, with no offset (a value has no bytes).
    struct Rated: Codable, Validatable {
        var stars: Int
        static let validation = Validation<Rated> { Field("stars", .range(1...5)) }
    }

    @Test func violationsHaveTheirPath() throws {
        do {
            _ = try VettedPropertyListDecoder().decode([Rated].self, from: .array([.dictionary(["stars": .integer(.signed(9))])]))
            Issue.record("expected a violation")
        } catch let errors as ValidationErrors {
            #expect(errors.errors.map(\.code) == [.outOfRange])
            #expect(errors.errors.map(\.path) == [[.index(0), .key("stars")]])
        }
    }
}

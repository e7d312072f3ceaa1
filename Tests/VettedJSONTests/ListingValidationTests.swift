import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedRules
import VettedTestSupport

@Suite struct ListingValidationTests {
    static let valid = """
        {"id": 1, "name": "Guitar", "description": "Acoustic guitar, barely played.", "price": "150.00",
         "sold": false, "url": "https://example.com/listings/1", "tags": ["music", "acoustic"],
         "created": "2018-05-01T10:39:04Z", "last_updated": "2018-05-01T10:39:04-07:00"}
        """

    var decoder: VettedJSONDecoder {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A listing from `valid` with one member replaced by raw JSON.
    func listing(_ key: String, _ json: String) throws -> [UInt8] {
        var object = try #require(try JSONParser().parse(Self.valid).objectValue)
        object[key] = try JSONParser().parse(json)
        return JSONValue.array([.object(object)]).jsonBytes()
    }

    func violations(_ bytes: [UInt8]) -> [VettedError] {
        do {
            _ = try decoder.decode([Listing].self, from: bytes)
            Issue.record("expected violations")
            return []
        } catch let error as ValidationErrors {
            return error.errors
        } catch {
            Issue.record("expected ValidationErrors, got \(error)")
            return []
        }
    }

    @Test func theValidListingDecodes() throws {
        let listings = try decoder.decode([Listing].self, from: Array("[\(Self.valid)]".utf8))
        #expect(listings.count == 1)
        #expect(listings[0].tags == [.music, .acoustic])
        #expect(listings[0].lastUpdated.timeIntervalSince(listings[0].created) == 7 * 3_600)
    }

    @Test(arguments: [
        ("id", "-1", VettedError.Code.outOfRange),
        ("id", "1099511627776", .outOfRange),  // 2^40
        ("description", "\"\"", .empty),
        ("description", "\"" + String(repeating: "O Romeo, Romeo, wherefore art thou Romeo? ", count: 3_000) + "\"", .tooLong),
        ("url", "\"not a URL\"", .invalidURL),
        ("url", "\"https://example.com@phish.test/\"", .userInfoNotAllowed),
        ("url", "\"https://ex\\u0430mple.com/x\"", .confusableHost),
        ("price", "\"-5.00\"", .patternMismatch),
        ("price", "\"1.999\"", .patternMismatch),
        ("tags", "[]", .empty),
    ])
    func eachRuleFailureHasItsCodeAndPath(key: String, json: String, code: VettedError.Code) throws {
        let found = violations(try listing(key, json))
        #expect(found.map(\.code) == [code])
        #expect(found.first?.path == [.index(0), .key(key)])
    }

    @Test func lastUpdatedBeforeCreated() throws {
        let found = violations(try listing("last_updated", "\"2018-04-30T00:00:00Z\""))
        #expect(found == [VettedError(code: .relationViolated, path: [.index(0), .key("last_updated")])])
    }

    @Test func aTagThatIsANumberIsATypeMismatchWithItsPath() throws {
        do {
            _ = try decoder.decode([Listing].self, from: try listing("tags", "[\"music\", 5]"))
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 0", "tags", "Index 1"])
        }
    }

    @Test func aNullTagIsValueNotFound() throws {
        do {
            _ = try decoder.decode([Listing].self, from: try listing("tags", "[null]"))
            Issue.record("expected an error")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 0", "tags", "Index 0"])
        }
    }

    @Test func violationsAreCollectedAcrossListingsAndCapped() throws {
        var object = try #require(try JSONParser().parse(Self.valid).objectValue)
        object["id"] = -1
        object["name"] = ""
        let many = JSONValue.array(Array(repeating: .object(object), count: 80)).jsonBytes()
        do {
            _ = try decoder.decode([Listing].self, from: many)
            Issue.record("expected violations")
        } catch let error as ValidationErrors {
            #expect(error.errors.count == 100)
            #expect(error.omitted == 60)
            #expect(error.errors[2].path == [.index(1), .key("id")])
            let bridged = error.decodingError
            guard case .dataCorrupted(let context) = bridged else {
                Issue.record("expected dataCorrupted")
                return
            }
            #expect(context.codingPath.map(\.stringValue) == ["Index 0", "id"])
            #expect(context.underlyingError is ValidationErrors)
        }
    }

    @Test func failFastThrowsTheFirstViolation() throws {
        let decoder = self.decoder
        decoder.validationMode = .failFast
        do {
            _ = try decoder.decode([Listing].self, from: try listing("id", "0"))
            Issue.record("expected an error")
        } catch let error as ValidationErrors {
            // Located in the input: the offset of the value, and from it line and column.
            #expect(error.errors == [VettedError(code: .outOfRange, offset: 7, path: [.index(0), .key("id")])])
            #expect(error.errors.first?.location == LineColumn(line: 1, column: 8))
        }
    }

    /// Relations run when their fields decoded, even though another field failed its rule.
    @Test func relationsRunAlongsideOtherRuleFailures() throws {
        var object = try #require(try JSONParser().parse(Self.valid).objectValue)
        object["id"] = -1
        object["last_updated"] = "2018-04-30T00:00:00Z"
        let found = violations(JSONValue.array([.object(object)]).jsonBytes())
        #expect(found == [
            VettedError(code: .outOfRange, offset: 7, path: [.index(0), .key("id")]),
            VettedError(code: .relationViolated, path: [.index(0), .key("last_updated")]),
        ])
    }

    struct Window: Decodable, Validatable {
        var start: Int
        var end: Int
        var note: Int
        static let validation = Validation<Window> {
            Relation("end", after: "start", as: Int.self)
        }
    }

    /// A field that fails to decode is the call's answer, whatever rules failed
    /// before it: the same stage (structure) and the same `$`-path as when
    /// nothing failed earlier, located as a parse error is.
    @Test(arguments: [
        #"[{"start": 5, "end": 1, "note": "x"}]"#,  // the relation fails first
        #"[{"start": 1, "end": 5, "note": "x"}]"#,  // nothing fails first
    ])
    func aStructuralFailureIsTheAnswerWhateverFailedBefore(_ json: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode([Window].self, from: Array(json.utf8))
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 0", "note"])
        let located = try #require(error.vettedError)
        #expect(located == VettedError(code: .typeMismatch, offset: 32, path: [.index(0), .key("note")]))
        #expect(located.location == LineColumn(line: 1, column: 33))
        #expect(located.excerpt != nil)
        #expect(VettedFailure(error).stage == .structure)
        #expect("\(located.path)" == "$[0].note")
    }

    @Test func duplicateKeysAreRejectedWithTheirOffsets() throws {
        let bytes = Array("[{\"id\": 1, \"id\": 2}]".utf8)
        do {
            _ = try decoder.decode([Listing].self, from: bytes)
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            let underlying = try #require(context.underlyingError as? VettedError)
            #expect(underlying == VettedError(code: .duplicateKey, offset: 11, path: [.index(0), .key("id")]))
        }
    }

    /// The talk's lenient variant: a listing that fails to decode is skipped,
    /// and the caller learns which and why.
    @Test func lenientDecodingSkipsInvalidListings() throws {
        struct Lenient: Decodable {
            var listings: [Listing] = []
            var skipped: [(index: Int, error: any Error)] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    let index = container.currentIndex
                    do {
                        listings.append(try container.decode(Listing.self))
                    } catch {
                        skipped.append((index, error))
                        _ = try container.decode(JSONValue.self)  // step over it
                    }
                }
            }
        }
        let good = try JSONParser().parse(Self.valid)
        var bad = try #require(good.objectValue)
        bad["tags"] = ["music", 5]
        let bytes = JSONValue.array([good, .object(bad), good]).jsonBytes()
        let lenient = try decoder.decode(Lenient.self, from: bytes)
        #expect(lenient.listings.count == 2)
        #expect(lenient.skipped.map(\.index) == [1])
    }
}

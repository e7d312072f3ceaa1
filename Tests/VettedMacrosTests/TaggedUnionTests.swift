import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedTestSupport

/// A payload with a field named like the union's tag key: the macro cannot see it.
@Vetted struct KindPayload: Codable, Equatable {
    var kind: String
    var id: Int
}

@Vetted(tag: "kind") enum ClashingEvent: Codable, Equatable {
    case a(KindPayload)
}

@Suite struct TaggedUnionTests {
    @Test func anInternallyTaggedUnionDecodesEachCaseWhereverItsTagSits() {
        #expect(everyPath(TestEvent.self, #"{"type": "created", "id": 1, "name": "Lamp"}"#) == .value(.created(TestCreated(id: 1, name: "Lamp"))))
        #expect(everyPath(TestEvent.self, #"{"id": 2, "price": 30, "type": "listing.sold"}"#) == .value(.sold(TestSold(id: 2, price: 30))))
        #expect(
            everyPath([TestEvent].self, #"[{"type": "created", "id": 1, "name": "Lamp"}, {"type": "listing.sold", "id": 1, "price": 5}]"#)
                == .value([.created(TestCreated(id: 1, name: "Lamp")), .sold(TestSold(id: 1, price: 5))]))
    }

    @Test func thePayloadsRulesRunAtTheirPaths() {
        #expect(
            everyPath([TestEvent].self, #"[{"type": "created", "id": 1, "name": "Lamp"}, {"type": "listing.sold", "id": 0, "price": -5}]"#)
                == .errors(["outOfRange $[1].id", "outOfRange $[1].price"]))
        #expect(everyPath(TestEvent.self, #"{"type": "created", "id": 1}"#) == .errors(["keyNotFound $.name"]))
    }

    @Test func anUnknownOrMissingTagIsATypedLocatedError() throws {
        #expect(everyPath([TestEvent].self, #"[{"type": "deleted", "id": 1}]"#) == .errors(["unknownTag $[0].type"]))
        #expect(everyPath([TestEvent].self, #"[{"id": 1}]"#) == .errors(["missingTag $[0]"]))
        #expect(everyPath(TestEvent.self, #"{"type": 5, "id": 1}"#) == .errors(["typeMismatch $.type"]))
        #expect(everyPath(TestEvent.self, #"{"type": null, "id": 1}"#) == .errors(["valueNotFound $.type"]))
        let json = #"[{"type": "deleted", "id": 1}]"#
        let error = try #require(throws: DecodingError.self) { try VettedJSONDecoder().decode([TestEvent].self, from: Data(json.utf8)) }
        let vetted = try #require(error.vettedError)
        #expect(vetted.offset == 10)
        #expect(vetted.message == #"unknown tag "deleted"; known tags: "created", "listing.sold""#)
    }

    @Test func anAdjacentlyTaggedUnionReadsThePayloadUnderItsContentKey() {
        #expect(
            everyPath(WrappedEvent.self, #"{"type": "listing.sold", "data": {"id": 3, "price": 4}}"#) == .value(.sold(TestSold(id: 3, price: 4))))
        #expect(everyPath(WrappedEvent.self, #"{"data": {"id": 3, "name": "x"}, "type": "created"}"#) == .value(.created(TestCreated(id: 3, name: "x"))))
        #expect(everyPath(WrappedEvent.self, #"{"type": "listing.sold", "data": {"id": 3, "price": -4}}"#) == .errors(["outOfRange $.data.price"]))
        // The fallback case takes a tag no other case has.
        #expect(everyPath(WrappedEvent.self, #"{"type": "listing.deleted", "data": {}}"#) == .value(.other("listing.deleted")))
        #expect(everyPath(WrappedEvent.self, #"{"type": "created"}"#) == .errors(["keyNotFound $.data"]))
    }

    @Test func encodingWritesTheSameShapes() throws {
        let events: [TestEvent] = [.created(TestCreated(id: 1, name: "Lamp")), .sold(TestSold(id: 1, price: 5))]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(events), as: UTF8.self)
        #expect(text == #"[{"id":1,"name":"Lamp","type":"created"},{"id":1,"price":5,"type":"listing.sold"}]"#)
        #expect(try VettedJSONDecoder().decode([TestEvent].self, from: Data(text.utf8)) == events)
        let wrapped: [WrappedEvent] = [.sold(TestSold(id: 2, price: 3)), .other("x")]
        let wrappedText = String(decoding: try encoder.encode(wrapped), as: UTF8.self)
        #expect(wrappedText == #"[{"data":{"id":2,"price":3},"type":"listing.sold"},{"type":"x"}]"#)
        // Property lists too.
        let plist = try PropertyListEncoder().encode(events)
        #expect(try VettedPropertyListDecoder().decode([TestEvent].self, from: plist) == events)
        // Foundation's decoders run the generated init(from:).
        #expect(try JSONDecoder().decode([TestEvent].self, from: Data(text.utf8)) == events)
    }

    @Test func validateChecksAUnionsPayload() {
        let events: [TestEvent] = [.created(TestCreated(id: 1, name: "")), .sold(TestSold(id: 1, price: -1))]
        #expect(throws: ValidationErrors.self) { try events.first?.validate() }
        do {
            try WrappedEvent.sold(TestSold(id: 0, price: 1)).validate()
            Issue.record("no violation")
        } catch {
            #expect(error.errors.map { "\($0.code) \($0.path)" } == ["outOfRange $.data.id"])
        }
        do {
            try TestEvent.sold(TestSold(id: 1, price: -1)).validate()
            Issue.record("no violation")
        } catch {
            #expect(error.errors.map { "\($0.code) \($0.path)" } == ["outOfRange $.price"])
        }
    }

    @Test func aTagKeyThatIsAPayloadFieldIsADeclarationErrorInEveryMode() throws {
        for path in ShapePath.allCases {
            do {
                _ = try path.decode(ClashingEvent.self, #"{"kind": "a", "id": 1}"#)
                Issue.record("\(path): decoded")
            } catch let error as VettedError {
                #expect(error.code == .unionKeyIsPayloadField && error.code.isRuleDeclaration, "\(path)")
            } catch {
                Issue.record("\(path): \(error)")
            }
        }
        #expect(!VettedJSONDecoder().plansDirectDecoding(ClashingEvent.self))
    }

    @Test func theDeclarationCheckWalksTheFirstCase() {
        #expect(Validation.checkDeclarations(of: TestEvent.self) == [])
    }

    /// A union whose tag key is a payload's field is found without sample data (before: `[]`).
    @Test func theDeclarationCheckFindsATagKeyThatIsAPayloadField() {
        let errors = Validation.checkDeclarations(of: ClashingEvent.self)
        #expect(errors.map { "\($0.code) \($0.path)" } == ["unionKeyIsPayloadField $.ClashingEvent"])
    }
}

@Suite struct TaggedUnionDirectTests {
    @Test func wellFormedEventsDecodeStraightFromTheBytes() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = #"""
            [{"type":"listing.created","id":1,"name":"Lamp","price":"5.00","tags":["music"],"at":"2020-01-01T00:00:00Z"},
             {"type":"listing.sold","id":1,"price":"5.00","at":"2020-01-02T00:00:00Z"},
             {"type":"message.sent","id":1,"from":3,"text":"Still there?","at":"2020-01-02T00:00:00Z"}]
            """#
        #expect(decoder.plansDirectDecoding([ListingEvent].self))
        #expect(decoder.decodesDirectly([ListingEvent].self, from: Data(json.utf8)))
        #expect(decoder.decodesDirectly(TestEvent.self, from: Data(#"{"type": "created", "id": 1, "name": "x"}"#.utf8)))
        #expect(decoder.decodesDirectly(WrappedEvent.self, from: Data(#"{"type": "created", "data": {"id": 1, "name": "x"}}"#.utf8)))
        // A tag that is not first (before: the tape path's), found before the payload is read.
        #expect(decoder.decodesDirectly(TestEvent.self, from: Data(#"{"id": 1, "type": "created", "name": "x"}"#.utf8)))
        // Left to the tape path: a repeated tag, an unknown tag of a union with an `@UnknownTag`
        // case. A broken rule is answered here (`TaggedUnionFailureTests`).
        #expect(!decoder.decodesDirectly(TestEvent.self, from: Data(#"{"type": "created", "id": 1, "type": "created", "name": "x"}"#.utf8)))
        #expect(!decoder.decodesDirectly(WrappedEvent.self, from: Data(#"{"type": "gone", "data": {}}"#.utf8)))
        #expect(decoder.decodesDirectly(TestEvent.self, from: Data(#"{"type": "created", "id": 0, "name": "x"}"#.utf8)))
        #expect(ShapePath.bytes.outcome(TestEvent.self, #"{"type": "created", "id": 1, "type": "created", "name": "x"}"#) == .errors(["duplicateKey $.type"]))
    }

    /// A union of more cases than a small table holds (before: the tape path), an escaped tag,
    /// and a tag equal to a case's as a String but not in bytes: read straight from the bytes.
    @Test func wideUnionsAndEscapedTagsAreReadStraightFromTheBytes() throws {
        let decoder = VettedJSONDecoder()
        let documents = [
            #"{"type": "c17", "id": 1, "name": "x"}"#, #"{"type": "c\u0031", "id": 1, "name": "x"}"#,
            #"{"type": "listing.sold", "id": 1, "price": 2}"#, #"{"type": "é", "id": 1, "price": 2}"#,
            "{\"type\": \"e\u{0301}\", \"id\": 1, \"price\": 2}",
        ]
        for json in documents {
            #expect(decoder.decodesDirectly(WideEvent.self, from: Data(json.utf8)), "\(json)")
        }
        #expect(try decoder.decode(WideEvent.self, from: Data(documents[1].utf8)) == .c1(TestCreated(id: 1, name: "x")))
        #expect(try decoder.decode(WideEvent.self, from: Data(documents[4].utf8)) == .accented(TestSold(id: 1, price: 2)))
        #expect(decoder.decodesDirectly(TestEvent.self, from: Data(#"{"type": "cre\u0061ted", "id": 1, "name": "x"}"#.utf8)))
        // An unknown tag of the top-level union: its one error is the answer, from the bytes too.
        #expect(decoder.decodesDirectly(WideEvent.self, from: Data(#"{"type": "c99", "id": 1, "name": "x"}"#.utf8)))
        #expect(ShapePath.bytes.outcome(WideEvent.self, #"{"type": "c99", "id": 1, "name": "x"}"#) == ShapePath.tape.outcome(WideEvent.self, #"{"type": "c99", "id": 1, "name": "x"}"#))
    }
}

/// Every single mutation of an event, a page with defaults and aliases, and
/// a wrapped event: the same value or the same errors through every path.
@Suite struct ShapesDifferentialTests {
    static let replacements = [
        "null", "true", "0", "-1", "1.5", #""""#, #""x""#, #""listing.sold""#, #""created""#, #""listing.created""#, "[]", "{}",
        #"["music"]"#, #"{"id": 1, "price": 2}"#, #""2020-01-01T00:00:00Z""#, #""\u0074ype""#, "99999999999",
    ]

    func check<T: Decodable & Equatable>(_ type: T.Type, base: Members) {
        var failures = 0
        var documents = GenCorpus.documents(base: base, replacements: Self.replacements)
        // The members in another order: the tag last, then first again.
        var rotated = base
        rotated.members.append(rotated.members.removeFirst())
        documents.append(rotated.text)
        for document in documents where failures < 5 {
            for json in ["[\(document)]", "[\(document), \(base.text)]"] {
                let paths = ShapePath.comparable(for: json)
                let outcomes = paths.map { $0.outcome([T].self, json) }
                if outcomes.contains(where: { $0 != outcomes[0] }) {
                    let lines = zip(paths, outcomes).map { "  \($0): \($1)" }.joined(separator: "\n")
                    Issue.record(Comment(rawValue: "\(T.self): \(json)\n\(lines)"))
                    failures += 1
                }
            }
        }
    }

    @Test func events() {
        check(
            ListingEvent.self,
            base: Members(members: [
                ("type", #""listing.created""#), ("id", "1"), ("name", #""Lamp""#), ("price", #""5.00""#), ("tags", #"["music"]"#),
                ("at", #""2020-01-01T00:00:00Z""#),
            ]))
        check(
            ListingEvent.self,
            base: Members(members: [("type", #""listing.sold""#), ("id", "1"), ("price", #""5""#), ("at", #""2020-01-01T00:00:00Z""#)]))
    }

    @Test func wideEvents() {
        check(WideEvent.self, base: Members(members: [("type", #""c18""#), ("id", "1"), ("name", #""x""#)]))
        check(WideEvent.self, base: Members(members: [("type", #""listing.sold""#), ("id", "1"), ("price", "2")]))
    }

    @Test func wrappedEvents() {
        check(WrappedEvent.self, base: Members(members: [("type", #""listing.sold""#), ("data", #"{"id": 1, "price": 2}"#)]))
    }

    @Test func defaultsAndAliases() {
        check(Page.self, base: Members(members: [("limit", "5"), ("productId", "7"), ("lang", #""fr""#), ("note", #""n""#), ("tags", #"["a"]"#)]))
    }
}

/// What is wrong inside a union is answered straight from the bytes (before: the tape path read
/// the document again): an unknown tag, a violation or a structural error in an internally
/// tagged payload, a syntax error inside any union. The same code, path, offset and message as
/// the tape path's, in the same order.
@Suite struct TaggedUnionFailureTests {
    static func answer<T: Decodable>(_ type: T.Type, _ json: String, direct: Bool) -> String {
        let decoder = VettedJSONDecoder()
        decoder.directDecoding = direct
        decoder.dateDecodingStrategy = .iso8601
        func line(_ error: VettedError) -> String { "\(error.code) \(error.path) @\(error.offset ?? -1) \(error.message)" }
        do {
            _ = try decoder.decode(T.self, from: Data(json.utf8))
            return "value"
        } catch let error as DecodingError {
            return error.vettedError.map(line) ?? "\(error)"
        } catch let errors as ValidationErrors {
            return errors.errors.map(line).joined(separator: "; ")
        } catch {
            return "\(error)"
        }
    }

    func check<T: Decodable>(_ type: T.Type, _ json: String, _ expected: String, direct: Bool = true) {
        let bytes = Self.answer(T.self, json, direct: true)
        #expect(bytes == expected, "\(json)")
        #expect(bytes == Self.answer(T.self, json, direct: false), "\(json)")
        #expect(VettedJSONDecoder().decodesDirectly(T.self, from: Data(json.utf8)) == direct, "\(json)")
    }

    /// A tag that is not the first member (before: the whole document again on the tape) is
    /// found before the payload is read: its value, violations, unknown tag, wrong kinds and
    /// syntax errors come from one pass. A repeated tag, an escaped one, one that is not a
    /// string, or none at all stay the tape path's.
    @Test func aTagThatIsNotFirstIsReadInOnePass() {
        check([TestEvent].self, #"[{"id": 1, "name": "x", "type": "created"}, {"price": 5, "type": "listing.sold", "id": 2}]"#, "value")
        check(
            [TestEvent].self, #"[{"id": 0, "name": "x", "type": "created"}, {"price": -1, "type": "listing.sold", "id": 2}]"#,
            "outOfRange $[0].id @8 must be between 1 and 1000000; outOfRange $[1].price @54 must be between 0 and 1000000")
        check(
            [TestEvent].self, #"[{"id": 1, "type": "gone"}, {"name": 5, "id": 1, "type": "created"}]"#,
            #"unknownTag $[0].type @19 unknown tag "gone"; known tags: "created", "listing.sold""#)
        check(
            [TestEvent].self, #"[{"name": "x", "id": "1", "type": "created"}]"#,
            #"typeMismatch $[0].id @21 "id": expected an integer"#)
        check(
            TestEvent.self, #"{"extra": {"type": "listing.sold", "a": [1, {"b": 2}]}, "type": "created", "id": 1, "name": "x"}"#, "value")
        check([TestEvent].self, #"[{"id": 1,, "type": "created"}]"#, "expectedKey $[0] @10 expected a string key; found ','")
        check([TestEvent].self, #"[{"id": 1, "name": "x", "type": "created"]"#, "unexpectedCharacter $[0].type @41 unexpected ']'; expected ',' or '}'")
        // Adjacently tagged: the content first, then the tag.
        check([WrappedEvent].self, #"[{"data": {"id": 1, "name": "x"}, "type": "created"}, {"type": "created", "data": {"id": 2, "name": "y"}}]"#, "value")
        check(
            [WrappedEvent].self, #"[{"data": {"id": 0, "name": "x"}, "type": "created"}, {"data": {"price": 1}, "type": "listing.sold"}]"#,
            "keyNotFound $[1].data.id @63 the required field \"id\" is missing")
        // Members after the tag and content, which no path reads (before: the tape path's); a repeat among them is the parser's.
        check([WrappedEvent].self, #"[{"data": {"id": 1, "name": "x"}, "type": "created", "more": [1, {"a": 2}]}, {"type": "created", "data": {"id": 2, "name": "y"}, "x": 1, "y": 2}]"#, "value")
        check([WrappedEvent].self, #"[{"type": "created", "data": {"id": 2, "name": "y"}, "x": 1, "type": "created"}]"#, #"duplicateKey $[0].type @61 duplicate key "type" (first at offset 2, again at offset 61)"#)
        for json in [
            #"{"more": 1, "data": {"id": 1, "name": "x"}, "type": "created"}"#, #"{"type": "created", "more": 1, "data": {"id": 1, "name": "x"}}"#,
        ] {
            #expect(!VettedJSONDecoder().decodesDirectly(WrappedEvent.self, from: Data(json.utf8)), "\(json)")
            #expect(Self.answer(WrappedEvent.self, json, direct: true) == Self.answer(WrappedEvent.self, json, direct: false), "\(json)")
        }
        for json in [
            #"{"id": 1, "type": "created", "type": "created", "name": "x"}"#, #"{"id": 1, "\u0074ype": "created", "name": "x"}"#,
            #"{"id": 1, "type": 5, "name": "x"}"#, #"{"id": 1, "name": "x"}"#,
        ] {
            #expect(!VettedJSONDecoder().decodesDirectly(TestEvent.self, from: Data(json.utf8)), "\(json)")
            #expect(Self.answer(TestEvent.self, json, direct: true) == Self.answer(TestEvent.self, json, direct: false), "\(json)")
        }
    }

    /// A structural error (an unknown tag in an array or a field, a payload's missing field or
    /// wrong type) is collected here under `.collect`, as the tape path collects it, and what
    /// follows is read on; the document's own union's unknown tag is its whole answer. A syntax
    /// error after it is answered in one pass.
    @Test func anUnknownTagIsAnsweredStraightFromTheBytes() {
        check([TestEvent].self, #"[{"type": "created", "id": 1, "name": "x"}, {"type": "gone", "id": 0}]"#,
            #"unknownTag $[1].type @53 unknown tag "gone"; known tags: "created", "listing.sold""#)
        check(WideEvent.self, #"{"type": "c99", "id": 1, "name": "x"}"#, #"unknownTag $.type @9 unknown tag "c99"; known tags: "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", … (21 in all)"#)
        // What follows the tag is still read as the parser reads it: a syntax error, a repeat.
        check(TestEvent.self, #"{"type": "gone", "id": 1,}"#, "trailingComma $.id @24 trailing comma before '}'")
        check(TestEvent.self, #"{"type": "gone", "id": 1, "id": 2}"#, #"duplicateKey $.id @26 duplicate key "id" (first at offset 17, again at offset 26)"#)
        // A union with an `@UnknownTag` case takes it: the tape path's (`init(from:)` names it).
        check(WrappedEvent.self, #"{"type": "gone", "data": {}}"#, "value", direct: false)
    }

    @Test func whatIsWrongInAPayloadIsAnsweredStraightFromTheBytes() {
        check(TestEvent.self, #"{"type": "created", "id": 0, "name": ""}"#,
            "outOfRange $.id @26 must be between 1 and 1000000; empty $.name @37 must not be empty")
        check([TestEvent].self, #"[{"type": "listing.sold", "price": -1, "id": 7}]"#, "outOfRange $[0].price @35 must be between 0 and 1000000")
        check(TestEvent.self, #"{"type": "created", "id": 1}"#, #"keyNotFound $.name @0 the required field "name" is missing"#)
        check(TestEvent.self, #"{"type": "created", "id": "1", "name": "x"}"#, #"typeMismatch $.id @26 "id": expected an integer"#)
        // An adjacently tagged union's payload too (before: the tape path's), and a content that is no object.
        check(WrappedEvent.self, #"{"type": "created", "data": {"id": 0, "name": "x"}}"#, "outOfRange $.data.id @35 must be between 1 and 1000000")
        check([WrappedEvent].self, #"[{"type": "listing.sold", "data": {"price": -1, "id": 0}}, {"type": "created", "data": {"id": 2, "name": ""}}]"#,
            "outOfRange $[0].data.id @54 must be between 1 and 1000000; outOfRange $[0].data.price @44 must be between 0 and 1000000; empty $[1].data.name @105 must not be empty")
        check(WrappedEvent.self, #"{"type": "created", "data": 5}"#, #"typeMismatch $.data @28 "data": expected an object"#)
        check(WrappedEvent.self, #"{"type": "created", "data": {"id": 1}}"#, #"keyNotFound $.data.name @28 the required field "name" is missing"#)
    }

    @Test func aSyntaxErrorInsideAUnionIsAnsweredStraightFromTheBytes() {
        check(TestEvent.self, #"{"type": "created", "id": 1, "name": "x",}"#, "trailingComma $.name @40 trailing comma before '}'")
        check(WrappedEvent.self, #"{"type": "created", "data": {"id": 1, "name": "x"}]"#, "unexpectedCharacter $.data @50 unexpected ']'; expected ',' or '}'")
        check(WrappedEvent.self, #"{"type": "created", "data": {"id": 1, "name": "x", "name": "y"}}"#,
            #"duplicateKey $.data.name @51 duplicate key "name" (first at offset 38, again at offset 51)"#)
    }
}

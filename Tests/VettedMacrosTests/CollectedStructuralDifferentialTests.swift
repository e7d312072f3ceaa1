import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

/// The byte reader collects structural errors as it reads (issue 42): a document with several
/// defects is answered in one pass, and its answer is the tape path's, entry for entry — every
/// error's code, path, offset and message, in the same order, with the same count left out
/// under a cap.
@Suite struct CollectedStructuralDifferentialTests {
    /// `DirectItem` documents: `base` with members replaced (`nil`: removed), after a valid copy.
    static func item(_ changes: [(String, String?)], reversed: Bool = false) -> String {
        var members = DirectFailureTests.base
        for (key, value) in changes {
            guard let index = members.members.firstIndex(where: { $0.key == key }) else { continue }
            if let value { members.members[index].value = value } else { members.members.remove(at: index) }
        }
        if reversed { members.members.reverse() }
        return "[\(DirectFailureTests.base.text), \(members.text)]"
    }

    static let items: [(name: String, json: String)] = [
        ("a wrong type and a missing field", item([("count", #""x""#), ("label", nil)])),
        ("an element of a scalar array, twice", item([("numbers", #"[1, "a", 3, "b"]"#), ("flags", "[true, 0, null]")])),
        ("enum elements and an enum field", item([("kinds", #"["a", "zz", "yy"]"#), ("levels", "[1, 9]"), ("kind", "3")])),
        ("nested objects", item([("child", "{}"), ("children", #"[{"name": 1}, {}, 5]"#), ("spare", #"{"name": []}"#)])),
        ("fields in reverse declaration order", item([("count", "true"), ("ratio", #""r""#), ("child", "[]"), ("when", "null")], reversed: true)),
        ("a date, a double and an overflow", item([("when", #""soon""#), ("ratio", "1e400"), ("count", "99999999999999999999")])),
        ("a null where a value is required", item([("flag", "null"), ("label", "null"), ("tags", "null")])),
        ("a violation beside structural errors", item([("count", "500"), ("flag", #""yes""#), ("label", "[]")])),
    ]

    static let orders: [(name: String, json: String)] = [
        ("many in one array", "[" + (0..<40).map { #"{"id":"\#($0)","name":\#($0),"sold":true}"# }.joined(separator: ",") + "]"),
        ("reverse order, nested", #"{"gift":{"sold":1,"name":2,"id":"3"},"items":[{"sold":"x"},{"id":true}],"number":null}"#),
        ("a bad items array", #"{"number":1,"items":{"id":1},"gift":null}"#),
    ]

    /// Documents with unions: payloads, internally or adjacently tagged, recover as structs do
    /// (one pass), a tag that is not first too.
    static let unions: [(name: String, json: String, once: Bool)] = [
        (
            "payloads and an unknown tag in an array",
            #"[{"type":"created","id":"x","name":5},{"type":"listing.sold","id":1},{"type":"bogus","x":[1,{"y":2}]},{"type":"created","id":1,"name":"ok"},{"type":"listing.sold","price":null,"id":0}]"#,
            true
        ),
        ("a wide union found by hash", #"[{"type":"c17","id":true},{"type":"é","id":1,"price":"p"},{"type":"c99"},{"type":"listing.sold"}]"#, true),
        (
            "unions in a struct's fields",
            #"{"name":1,"first":{"type":"created","name":[]},"events":[{"type":"nope","id":1},7,{"type":"created","id":2,"name":"n"},{"type":"listing.sold","id":"3","price":4}],"count":"c"}"#,
            true
        ),
        ("a union field of another kind", #"{"name":"n","first":[],"events":{},"count":true,"extra":{"type":"x"}}"#, true),
        ("fields in reverse order around a union", #"{"count":null,"events":[{"type":"created"}],"first":{"type":"zz","id":1},"name":"n"}"#, true),
        ("an adjacently tagged payload", #"[{"type":"created","data":{"id":"x"}},{"type":"listing.sold","data":{"price":1}}]"#, true),
        (
            "adjacently tagged payloads of another kind",
            #"[{"type":"created","data":5},{"type":"listing.sold","data":[]},{"type":"created","data":null},{"type":"created","data":{}},{"type":"listing.sold","data":[1]},{"type":"listing.sold","data":{"id":1,"price":2}}]"#,
            true
        ),
        (
            "adjacently tagged unions in a struct's fields",
            #"{"name":"n","wrapped":{"type":"created","data":{"id":"x","name":[]}},"more":[{"type":"listing.sold","data":{"id":0,"price":"p"}},{"type":"created","data":7}],"maybe":{"type":"created","data":{"name":"y"}},"count":99}"#,
            true
        ),
        (
            "adjacently tagged unions in reverse order",
            #"{"count":"c","maybe":{"type":"created","data":{"name":3,"id":true}},"more":{},"wrapped":{"type":"listing.sold","data":{"price":true,"id":"2"}},"name":null}"#,
            true
        ),
        (
            "adjacently tagged unions, tag last",
            #"{"name":"n","wrapped":{"data":{"id":"x","name":[]},"type":"created"},"more":[{"data":{"id":0,"price":"p"},"type":"listing.sold"},{"data":7,"type":"created"}],"maybe":{"data":{"name":"y"},"type":"created"},"count":99}"#,
            true
        ),
        ("a tag that is not first", #"[{"id":"x","type":"created","name":1},{"type":"created","id":[]}]"#, true),
        ("tags last, in a struct's fields", #"{"name":"n","first":{"id":"1","name":2,"type":"created"},"events":[{"price":"p","type":"listing.sold","id":0},{"id":1,"type":"zz"}],"count":4}"#, true),
    ]

    static let modes: [ValidationMode] = [.collect, .collect(upTo: 0), .collect(upTo: 1), .collect(upTo: 3), .failFast]

    /// Every entry of the error `body` throws (a structural error's all, or the violations), and the count left out.
    static func entries(_ body: () throws -> Any) -> [String] {
        func line(_ error: VettedError) -> String { "\(error.code) \(error.path) @\(error.offset ?? -1) \(error.message)" }
        do {
            _ = try body()
            return ["no error"]
        } catch let error as DecodingError {
            guard let vetted = error.vettedError else { return ["unlocated \(error)"] }
            return vetted.all.map(line) + ["omitted \(vetted.othersOmitted)"]
        } catch let error as ValidationErrors {
            return ["violations"] + error.errors.map(line) + ["omitted \(error.omitted)"]
        } catch {
            return ["other \(error)"]
        }
    }

    /// Both paths' answers for `json` as `T` under `mode`, and whether the byte reader answered alone.
    static func answers<T: Decodable>(_ type: T.Type, _ json: String, _ mode: ValidationMode) -> (direct: [String], tape: [String], once: Bool) {
        let data = Data(json.utf8)
        let decoder = VettedJSONDecoder()
        decoder.validationMode = mode
        let tape = VettedJSONDecoder()
        tape.validationMode = mode
        tape.directDecoding = false
        return (entries { try decoder.decode(T.self, from: data) }, entries { try tape.decode(T.self, from: data) }, decoder.decodesDirectly(T.self, from: data))
    }

    @Test(arguments: items.indices)
    func aDirectItemWithSeveralDefects(_ index: Int) throws {
        let (name, json) = Self.items[index]
        for mode in Self.modes {
            let (direct, tape, once) = Self.answers([DirectItem].self, json, mode)
            #expect(direct == tape, "\(name) under \(mode)")
            #expect(direct.count > 2 || mode != .collect, "\(name): \(direct)")
            if mode != .failFast { #expect(once, "\(name) under \(mode)") }
        }
    }

    @Test(arguments: orders.indices)
    func ordersAndItemsWithSeveralDefects(_ index: Int) throws {
        let (name, json) = Self.orders[index]
        for mode in Self.modes {
            let (direct, tape, once) =
                name == "many in one array"
                ? Self.answers([CollectedItem].self, json, mode) : Self.answers(CollectedOrder.self, json, mode)
            #expect(direct == tape, "\(name) under \(mode)")
            if mode != .failFast { #expect(once, "\(name) under \(mode)") }
        }
    }

    @Test(arguments: unions.indices)
    func unionsWithSeveralDefects(_ index: Int) throws {
        let (name, json, readOnce) = Self.unions[index]
        for mode in Self.modes {
            let (direct, tape, once) =
                switch name {
                case "a wide union found by hash": Self.answers([WideEvent].self, json, mode)
                case "an adjacently tagged payload", "adjacently tagged payloads of another kind": Self.answers([WrappedEvent].self, json, mode)
                case let name where name.hasPrefix("adjacently tagged unions"): Self.answers(CollectedWrappedLog.self, json, mode)
                case let name where name.contains("struct") || name.contains("around") || name.contains("field"):
                    Self.answers(CollectedEventLog.self, json, mode)
                default: Self.answers([TestEvent].self, json, mode)
                }
            #expect(direct == tape, "\(name) under \(mode)")
            #expect(direct.count > 3 || mode != .collect, "\(name): \(direct)")
            if mode != .failFast && readOnce { #expect(once, "\(name) under \(mode)") }
        }
    }

    /// A top-level union whose tag no case has: that one error is the answer in every mode, read
    /// once; a syntax error or a repeated key after it in its object is still the answer.
    @Test func aTopLevelUnionsUnknownTagIsReadOnce() throws {
        let documents = [
            (#"{"type":"bogus","id":[1,{"a":2}],"name":null}"#, true),
            (#"{"type":"c99","id":"x"}"#, true),
            (#"{"type":"bogus","id":1,"id":2}"#, true),
            (#"{"type":"bogus","id":1,}"#, true),
            (#"{"type":"bogus","id":1} 7"#, true),
        ]
        for (json, once) in documents {
            for mode in Self.modes {
                let (direct, tape, readOnce) = json.contains("c99") ? Self.answers(WideEvent.self, json, mode) : Self.answers(TestEvent.self, json, mode)
                #expect(direct == tape, "\(json) under \(mode)")
                #expect(readOnce == once, "\(json) under \(mode)")
            }
        }
        #expect(
            Self.answers(TestEvent.self, documents[0].0, .collect).direct == [
                #"unknownTag $.type @8 unknown tag "bogus"; known tags: "created", "listing.sold""#, "omitted 0",
            ])
    }

    /// The cap bounds what is kept, not what is counted: 40 elements with two defects each.
    @Test func theCapKeepsTheFirstInTheTapePathsOrder() throws {
        let (direct, _, once) = Self.answers([CollectedItem].self, Self.orders[0].json, .collect(upTo: 3))
        #expect(once)
        #expect(
            direct == [
                #"typeMismatch $[0].id @7 "id": expected an integer"#, #"typeMismatch $[0].name @18 "name": expected a string"#,
                #"typeMismatch $[1].id @39 "id": expected an integer"#, "omitted 77",
            ])
    }
}

/// A struct whose fields hold internally tagged unions, alone and in an array.
/// Adjacently tagged unions in a struct's fields: alone, in an array, optional.
@Vetted struct CollectedWrappedLog: Codable, Equatable {
    var name: String
    var wrapped: WrappedEvent
    @Check(.count(0...1)) var more: [WrappedEvent]
    var maybe: WrappedEvent?
    @Check(.range(0...10)) var count: Int
}

@Vetted struct CollectedEventLog: Codable, Equatable {
    var name: String
    var first: TestEvent
    var events: [TestEvent]
    @Check(.range(0...10)) var count: Int
}

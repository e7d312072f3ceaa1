import Foundation
import Testing
import VettedCore
import VettedJSON
@_spi(Testing) import VettedJSONSchema
import VettedTestSupport

/// `validate(Data)` reads the document once, validating as it parses. It must answer
/// exactly what parsing the document whole and validating the value answers: the same
/// errors (code, path, offset, line, column, message, parameters, excerpt) in the same
/// order, the same count past the cap, the same parse error.
@Suite struct StreamingValidationTests {
    static let modes: [ValidationMode] = [.collect, .collect(upTo: 2), .failFast]

    /// Both answers, field by field; `nil` when they agree.
    static func difference(_ schema: JSONSchema, _ bytes: [UInt8], mode: ValidationMode) -> String? {
        let data = Data(bytes)
        let streamed = schema.validate(data, mode: mode)
        let parsed = schema.validateParsed(data, mode: mode)
        func render(_ report: JSONSchemaReport) -> [String] {
            ["wellFormed \(report.isWellFormed) more \(report.moreErrors)"]
                + report.errors.map { error in
                    let parameters = error.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                    return "\(error) [\(parameters)] excerpt \(error.excerpt.map { "\($0)" } ?? "-")"
                }
        }
        let left = render(streamed), right = render(parsed)
        return left == right ? nil : "streamed:\n  " + left.joined(separator: "\n  ") + "\nparsed:\n  " + right.joined(separator: "\n  ")
    }

    /// Every schema of the suite (both drafts, the optional tests too), every instance with
    /// its mutations, compact and pretty, and cut short: every mode.
    @Test(.enabled(if: OfficialSuite.present, OfficialSuite.absent))
    func theStreamAnswersAsTheParsedValueOnTheSuite() throws {
        var compared = 0
        var differences: [String] = []
        for draft in ["draft2020-12", "draft7"] {
            let options = JSONSchema.Options(defaultDraft: draft == "draft7" ? .draft7 : .draft2020_12)
            for subfolder in ["", "optional"] {
                let directory = OfficialSuite.folder.appendingPathComponent("tests/\(draft)/\(subfolder)")
                for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).filter({ $0.hasSuffix(".json") }).sorted() {
                    let groups = try JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(file)))
                    for group in groups.arrayValue ?? [] {
                        guard let schema = try? JSONSchema(group["schema"] ?? .null, resources: OfficialSuite.remotes, options: options) else { continue }
                        for test in group["tests"]?.arrayValue ?? [] {
                            for instance in SuiteOracle.mutations(of: test["data"] ?? .null) {
                                let compact = JSONWriter().bytes(instance)
                                var texts = [compact, JSONWriter(style: .pretty).bytes(instance)]
                                if compact.count > 2 { texts.append(Array(compact.dropLast())) }
                                for text in texts {
                                    for mode in Self.modes {
                                        compared += 1
                                        if let difference = Self.difference(schema, text, mode: mode), differences.count < 5 {
                                            differences.append("\(draft)/\(file): \(group["description"]?.stringValue ?? "?"): \(String(decoding: text, as: UTF8.self)) \(mode):\n\(difference)")
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        print("streaming against parsed: \(compared) comparisons")
        #expect(compared > 50_000)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n\n"))")
    }
}

extension StreamingValidationTests {
    /// A schema with what a stream reads member by member (properties, required, counts,
    /// items and prefixItems, a `$ref` alone) beside what it must build whole (overlapping
    /// patternProperties, shared subschemas under anyOf, enum and const of containers,
    /// uniqueItems, contains, unevaluatedProperties, a false subschema).
    static let mixedSchema = #"""
        {
          "$defs": {
            "item": {"type": "object", "required": ["id"], "maxProperties": 4,
                     "properties": {"id": {"type": "integer", "minimum": 1}, "tags": {"$ref": "#/$defs/tags"},
                                    "note": {"type": "string", "maxLength": 3}, "gone": false},
                     "patternProperties": {"^x": {"type": "number"}, "^xy": {"minimum": 0}},
                     "additionalProperties": {"type": ["string", "null"]}},
            "tags": {"type": "array", "minItems": 1, "maxItems": 3, "items": {"enum": ["a", "b", [1]]}, "uniqueItems": true},
            "shared": {"type": "object", "required": ["k"]}
          },
          "type": "object",
          "required": ["items", "pair"],
          "minProperties": 2,
          "properties": {
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}, "contains": {"required": ["tags"]}},
            "pair": {"prefixItems": [{"type": "string"}, {"const": {"a": [1]}}], "items": false},
            "either": {"anyOf": [{"$ref": "#/$defs/shared"}, {"allOf": [{"$ref": "#/$defs/shared"}, {"required": ["z"]}]}]},
            "closed": {"properties": {"a": true}, "unevaluatedProperties": false},
            "deep": {"$ref": "#"}
          }
        }
        """#

    /// Random documents near the schema (most fields right, some wrong, some missing,
    /// extra ones), in random whitespace, some cut short: the stream answers as the parsed value.
    @Test func theStreamAnswersAsTheParsedValueOnRandomDocuments() throws {
        let schema = try JSONSchema(Self.mixedSchema)
        var generator = SeededGenerator(seed: SeededGenerator.seed(for: "theStreamAnswersAsTheParsedValueOnRandomDocuments"))
        var differences: [String] = []
        for _ in 0..<400 {
            var text = Self.document(&generator, depth: 0)
            if generator.below(8) == 0 { text.removeLast(generator.below(text.count) + 1) }
            for mode in Self.modes {
                if let difference = Self.difference(schema, text, mode: mode), differences.count < 3 {
                    differences.append("\(String(decoding: text, as: UTF8.self)) \(mode):\n\(difference)")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n\n"))")
    }

    private static func space(_ generator: inout SeededGenerator) -> String {
        ["", "", " ", "\n", "\n  ", "\t"][generator.below(6)]
    }

    private static func pick(_ generator: inout SeededGenerator, _ choices: [String]) -> String { choices[generator.below(choices.count)] }

    private static func object(_ generator: inout SeededGenerator, _ members: [(String, String)]) -> String {
        var members = members
        if generator.below(4) == 0, !members.isEmpty { members.remove(at: generator.below(members.count)) }
        if generator.below(6) == 0 { members.append(("extra\(generator.below(3))", pick(&generator, ["null", "1", "\"s\"", "[]"]))) }
        if generator.below(5) == 0, members.count > 1 { members.swapAt(0, members.count - 1) }
        let s = space(&generator)
        var parts: [String] = []
        for (key, value) in members {
            let before = space(&generator), after = space(&generator)
            parts.append("\"" + key + "\"" + before + ":" + after + value)
        }
        return "{" + s + parts.joined(separator: "," + s) + s + "}"
    }

    private static func document(_ generator: inout SeededGenerator, depth: Int) -> [UInt8] {
        var items: [String] = []
        for _ in 0..<generator.below(5) {
            var members = [("id", pick(&generator, ["1", "7", "0", "-2", "1.5", "\"1\"", "2.0"]))]
            if generator.below(3) > 0 {
                let tags = (0..<generator.below(5)).map { _ in pick(&generator, ["\"a\"", "\"b\"", "\"c\"", "[1]", "[2]", "1"]) }
                members.append(("tags", generator.below(8) == 0 ? "{}" : "[" + tags.joined(separator: ",") + "]"))
            }
            if generator.below(2) == 0 { members.append(("note", pick(&generator, ["\"ab\"", "\"abcd\"", "\"h\\u00e9\"", "3"]))) }
            if generator.below(3) == 0 { members.append((pick(&generator, ["x", "xy", "xyz", "y", "gone"]), pick(&generator, ["1", "-1", "\"s\"", "null", "true"]))) }
            items.append(generator.below(10) == 0 ? pick(&generator, ["1", "[]", "null"]) : object(&generator, members))
        }
        var members = [
            ("items", "[" + items.joined(separator: "," + space(&generator)) + "]"),
            ("pair", pick(&generator, ["[\"s\", {\"a\": [1]}]", "[\"s\", {\"a\": [2]}]", "[1]", "[\"s\", {\"a\":[1]}, 3]", "{}"])),
        ]
        if generator.below(2) == 0 { members.append(("either", pick(&generator, ["{\"k\": 1}", "{\"z\": 1}", "{}", "[]"]))) }
        if generator.below(3) == 0 { members.append(("closed", pick(&generator, ["{\"a\": 1}", "{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"c\": 3}"]))) }
        if depth < 2, generator.below(3) == 0 { members.append(("deep", String(decoding: document(&generator, depth: depth + 1), as: UTF8.self))) }
        return Array(object(&generator, members).utf8)
    }

    /// An error at a value the stream reads (`minimum`) is located where the stream meets
    /// it; one at a value built whole (`uniqueItems`, `const`), from its path: the same places.
    @Test func errorsAreLocatedWhereTheStreamMeetsThem() throws {
        let schema = try JSONSchema(Self.mixedSchema)
        let text = "{\"items\": [{\"id\": 0}, {\"id\": 2, \"tags\": [\"a\", \"a\"]}],\n \"pair\": [\"s\", {\"a\": [2]}]}"
        let report = schema.validate(Data(text.utf8))
        #expect(report.errors.map { "\($0.code)@\($0.path)@\($0.offset ?? -1)@\($0.line ?? -1):\($0.column ?? -1)" } == [
            "minimum@$.items[0].id@18@1:19",
            "uniqueItems@$.items[1].tags@40@1:41",
            "const@$.pair[1]@69@2:16",
        ])
        #expect(Self.difference(schema, Array(text.utf8), mode: .collect) == nil)
    }
}

extension StreamingValidationTests {
    /// Nesting that runs the evaluation out of depth (a `$ref` cycle) or of stack: the
    /// stream answers as the tree, or leaves the document to it.
    @Test(arguments: [10, 200, 500])
    func deepDocumentsAnswerAsTheParsedValue(depth: Int) throws {
        for source in [##"{"items": {"$ref": "#"}}"##, ##"{"$ref": "#"}"##, ##"{"items": {"$ref": "#/$defs/a"}, "$defs": {"a": {"$ref": "#"}}}"##] {
            let schema = try JSONSchema(source)
            let text = Array((String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
            for mode in Self.modes {
                #expect(Self.difference(schema, text, mode: mode) == nil, "\(source) at depth \(depth)")
            }
        }
    }
}

extension StreamingValidationTests {
    /// A string's length decided from its bytes where they decide it (plain ASCII; at least
    /// one character per 12 bytes otherwise), and from its characters where they do not.
    @Test func lengthsDecidedFromBytesAreTheCharacterCounts() throws {
        let schema = try JSONSchema(#"{"items": {"type": "string", "minLength": 2, "maxLength": 3}}"#)
        let strings: [(text: String, characters: Int)] = [
            (#""""#, 0), (#""a""#, 1), (#""ab""#, 2), (#""abc""#, 3), (#""abcd""#, 4),
            (#""\u00e9""#, 1), (#""\u00e9\u00e9""#, 2), (#""\uD83D\uDE00""#, 1), (#""\uD83D\uDE00\uD83D\uDE00""#, 2),
            (#""\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00""#, 4), (#""é""#, 1), (#""éé""#, 2), (#""😀😀😀😀""#, 4),
            (#""\n\n\n""#, 3), (#""\n\n\n\n""#, 4), (#""e\u0301""#, 2),
        ]
        let text = "[" + strings.map(\.text).joined(separator: ", ") + "]"
        let report = schema.validate(Data(text.utf8))
        let expected = strings.enumerated().compactMap { position, string -> String? in
            string.characters < 2 ? "minLength@$[\(position)]" : string.characters > 3 ? "maxLength@$[\(position)]" : nil
        }
        #expect(report.errors.map { "\($0.code)@\($0.path)" } == expected)
        #expect(Self.difference(schema, Array(text.utf8), mode: .collect) == nil)
    }
}

extension StreamingValidationTests {
    /// A short integer decided from its bytes; anything else (a fraction, an exponent, more
    /// than 18 digits) as the literal.
    @Test func integersDecidedFromBytesAreTheLiterals() throws {
        let schema = try JSONSchema(#"{"items": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10}}"#)
        let text = "[0, 1, 9, 10, -0, 1.0, 1e1, 9.5, 123456789012345678901, -123456789012345678901, 5]"
        let report = schema.validate(Data(text.utf8))
        #expect(report.errors.map { "\($0.code)@\($0.path)" } == [
            "minimum@$[0]", "exclusiveMaximum@$[3]", "minimum@$[4]", "exclusiveMaximum@$[6]", "type@$[7]", "exclusiveMaximum@$[8]", "minimum@$[9]",
        ])
        #expect(Self.difference(schema, Array(text.utf8), mode: .collect) == nil)
    }
}

extension StreamingValidationTests {
    /// Fuzz finding (jsonschema-crash-9320faba): a `$ref` to a shared `anyOf` that recurses
    /// through `items`. Under ASan the parsed value's evaluation ran out of stack where the
    /// stream's did not; the stack is now named as the limit (`limit: maxStackBytes`), the fuzz
    /// target lets that one answer differ, and with the stack to spare both paths answer alike.
    /// Fuzz finding (jsonschema-crash-a75bf643): the same schema with `[0,[2,[3,"x"]]]`, where
    /// the stream said valid and the tree ran out of stack; the target compared the error counts
    /// even when the stack had run out, and now lets the whole answer differ then.
    @Test func fuzzRecursiveAnyOfThroughAReference() throws {
        let schema = try JSONSchema(##"{"$defs":{"n":{"anyOf":[{"type":"integer"},{"items":{"$ref":"#/$defs/n"}}]}},"$ref":"#/$defs/n"}"##)
        for text in [Array(#"[0,[4,[3,"x"]]]"#.utf8), Array(#"[0,[2,[3,"x"]]]"#.utf8)] {
            for mode in Self.modes { #expect(Self.difference(schema, text, mode: mode) == nil) }
            #expect(schema.validate(Data(text)).isValid)
            #expect(schema.validateParsed(Data(text), mode: .collect).isValid)
        }
        // A `$ref` cycle ends at one of the two limits (a debug build's frames reach the stack's first), and says which.
        let deep = try JSONSchema(##"{"$ref": "#"}"##)
        let limit = deep.validate(Data("1".utf8)).errors.first?.parameters["limit"]
        #expect(limit == .string("maxStackBytes") || limit == .string("maximumEvaluationDepth"))
    }
}

extension StreamingValidationTests {
    /// A string checked for its `pattern` and `enum` from its decoded text, through the plain
    /// `$ref`s its schema makes (as the OpenAPI example's `price`, `url` and tags are): a string
    /// that passes is never handed to the tree evaluator, and one that fails is, so its errors
    /// are the tree's (code, path, offset, schema location).
    @Test func patternsAndEnumsThroughReferencesAnswerAsTheParsedValue() throws {
        let schema = try JSONSchema(
            #"""
            {"type": "object", "properties": {
               "price": {"$ref": "#/$defs/Price"},
               "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
               "code": {"$ref": "#/$defs/Code"}},
             "$defs": {
               "Price": {"type": "string", "maxLength": 8, "pattern": "^[0-9]+(\\.[0-9]{1,2})?$"},
               "Tag": {"type": "string", "enum": ["music", "books", "caf\u00e9"]},
               "Code": {"$ref": "#/$defs/Price", "minLength": 2, "enum": ["10", "10.5", "x"]}}}
            """#)
        let text = #"{"price": "10.5x", "tags": ["music", "toys", "cafe\u0301", "café"], "code": "x"}"#
        let report = schema.validate(Data(text.utf8))
        #expect(report.errors.map { "\($0.code)@\($0.path)@\($0.offset ?? -1)@\($0.parameters["schemaLocation"]?.string ?? "-")" } == [
            "pattern@$.price@10@/$defs/Price/pattern",
            "enum@$.tags[1]@37@/$defs/Tag/enum",
            // `enum` compares code points: e and U+0301 are not é.
            "enum@$.tags[2]@45@/$defs/Tag/enum",
            "pattern@$.code@77@/$defs/Price/pattern",
            "minLength@$.code@77@/$defs/Code/minLength",
        ])
        let documents = [
            text, #"{"price": "10.50", "tags": ["books", "café"], "code": "10.5"}"#, #"{"price": "123456789"}"#, #"{"code": "10"}"#,
            #"{"price": 10}"#, #"{"tags": ["cafe\u0301"]}"#, #"{"code": "1"}"#,
        ]
        for document in documents {
            for mode in Self.modes {
                #expect(Self.difference(schema, Array(document.utf8), mode: mode) == nil, "\(document) \(mode)")
            }
        }
    }

    /// A chain of `$ref`s to a string's check is as deep for the stream as for the evaluator:
    /// wherever nesting crosses the evaluation depth limit (or the stack's), both answer alike.
    @Test func aReferenceChainAtTheDepthLimitAnswersAsTheParsedValue() throws {
        for hops in [1, 8, 9] {
            var definitions = [##""d\##(hops)": {"type": "string", "pattern": "^a"}"##, ##""L": {"items": {"$ref": "#/$defs/L"}, "$ref": "#/$defs/d0"}"##]
            for hop in 0..<hops { definitions.append(##""d\##(hop)": {"$ref": "#/$defs/d\##(hop + 1)"}"##) }
            let schema = try JSONSchema("{\"$ref\": \"#/$defs/L\", \"$defs\": {\(definitions.joined(separator: ", "))}}")
            var differences = 0
            for depth in 1...600 {
                let text = String(repeating: "[", count: depth) + #""ab", "b""# + String(repeating: "]", count: depth)
                if let difference = Self.difference(schema, Array(text.utf8), mode: .collect) {
                    differences += 1
                    if differences <= 2 { Issue.record("\(hops) hops at depth \(depth):\n\(difference)") }
                }
            }
            #expect(differences == 0)
        }
    }
}

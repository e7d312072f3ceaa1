import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedJSONSchema

@Suite struct JSONSchemaReportTests {
    static let listing = #"""
        {"type": "object", "required": ["id", "price"],
         "properties": {"id": {"type": "integer", "minimum": 1}, "price": {"type": "number", "minimum": 0},
                        "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}},
         "additionalProperties": false}
        """#

    @Test func eachErrorNamesItsKeywordInstanceLocationAndSchemaLocation() throws {
        let schema = try JSONSchema(Self.listing)
        let report = schema.validate(Data(#"{"id": 0, "price": -5, "tags": ["ok", "toolong"], "x": 1}"#.utf8))
        #expect(!report.isValid)
        #expect(report.errors.map(\.code.rawValue) == ["minimum", "minimum", "maxLength", "additionalProperties"])
        #expect(report.errors.map(\.path.description) == ["$.id", "$.price", "$.tags[1]", "$.x"])
        #expect(report.errors.map(\.offset) == [7, 19, 38, 55])
        #expect(
            report.errors.map { $0.parameters["schemaLocation"]?.string } == [
                "/properties/id/minimum", "/properties/price/minimum", "/properties/tags/items/maxLength", "/additionalProperties",
            ])
        #expect(report.errors[0].parameters["minimum"] == .string("1"))
        #expect(report.errors[1].location == LineColumn(line: 1, column: 20))
    }

    /// A schema location is escaped once, when the schema is compiled, and the keyword put
    /// after it: the same text as escaping the whole each time, also where escaping cuts it.
    @Test func schemaLocationsAreEscapedAndCutAsAWhole() throws {
        let long = String(repeating: "n", count: 190)
        let schema = try JSONSchema(Data(#"{"properties": {"say \"hi\"\n": {"minimum": 1}, "\#(long)": {"minimum": 1}}}"#.utf8))
        let source = #"{"say \"hi\"\n": 0, "\#(long)": 0}"#
        let report = schema.validate(Data(source.utf8))
        #expect(report.errors.map(\.code.rawValue) == ["minimum", "minimum"])
        #expect(
            report.errors.map { $0.parameters["schemaLocation"]?.string } == [
                #"/properties/say \"hi\"\n/minimum"#,
                Excerpt.escape("/properties/\(long)/minimum", maximumBytes: 200),
            ])
        #expect(report.errors[1].parameters["schemaLocation"]?.string?.hasSuffix("…") == true)
        #expect(report.errors.map(\.offset) == [17, 214])
        #expect(report.errors.map(\.excerpt) == [17, 214].map { SourceText(source).excerpt(at: $0) })
    }

    @Test func failFastStopsAtTheFirstError() throws {
        let schema = try JSONSchema(Self.listing)
        let report = schema.validate(try JSONValue(parsing: #"{"id": 0, "price": -5}"#), mode: .failFast)
        #expect(report.errors.map(\.code.rawValue) == ["minimum"])
        #expect(report.errors.map(\.path.description) == ["$.id"])
    }

    @Test func aDocumentThatDoesNotParseIsTheParsersError() throws {
        let report = try JSONSchema(Self.listing).validate(Data(#"{"id": 1,}"#.utf8))
        #expect(report.errors.map(\.code) == [.trailingComma])
        #expect(report.errors.map(\.offset) == [8])
    }

    @Test func theBasicOutputFormat() throws {
        let report = try JSONSchema(Self.listing).validate(try JSONValue(parsing: #"{"id": 1}"#))
        #expect(
            report.basicOutput
                == (try JSONValue(
                    parsing: #"{"valid": false, "errors": [{"keywordLocation": "/required", "instanceLocation": "", "error": "the required property \"price\" is missing"}]}"#
                )))
        #expect(try JSONSchema(Self.listing).validate(try JSONValue(parsing: #"{"id": 1, "price": 2}"#)).basicOutput == ["valid": true])
    }

    @Test func numbersCompareExactlyAsWritten() throws {
        let schema = try JSONSchema(#"{"type": "integer", "multipleOf": 0.0001, "maximum": 1e400}"#)
        #expect(schema.validate(try JSONValue(parsing: "1.0")).isValid)
        #expect(schema.validate(try JSONValue(parsing: "1e399")).isValid)
        #expect(schema.validate(try JSONValue(parsing: "1e401")).errors.map(\.code.rawValue) == ["maximum"])
        let money = try JSONSchema(#"{"multipleOf": 0.01}"#)
        #expect(money.validate(try JSONValue(parsing: "19.99")).isValid)
        #expect(money.validate(try JSONValue(parsing: "19.991")).errors.map(\.code.rawValue) == ["multipleOf"])
        #expect(try JSONSchema(#"{"enum": [1, {"a": [2.0]}]}"#).validate(try JSONValue(parsing: #"{"a": [2]}"#)).isValid)
    }

    /// Short integers take a fast path; the answer is the exact one either way.
    @Test(arguments: [
        ("-0", ["exclusiveMinimum", "minimum"]), ("1", []), ("1.0", []), ("10e-1", []), ("5", []),
        ("0.99", ["minimum", "multipleOf", "type"]), ("999999999999999999", []), ("1000000000000000000", ["maximum"]),
        ("-999999999999999999", ["exclusiveMinimum", "minimum"]),
    ])
    func boundsAgreeOnFastAndExactPaths(literal: String, codes: [String]) throws {
        let schema = try JSONSchema(#"{"type": "integer", "minimum": 1, "exclusiveMinimum": 0.5, "maximum": 999999999999999999, "multipleOf": 1}"#)
        #expect(schema.validate(try JSONValue(parsing: literal)).errors.map(\.code.rawValue).sorted() == codes)
    }

    /// Lengths count code points; UTF-8 byte counts decide only when they can.
    @Test func lengthsCountCodePoints() throws {
        let three = try JSONSchema(#"{"minLength": 3, "maxLength": 3}"#)
        #expect(three.validate("ééé").isValid)
        #expect(three.validate("😀😀😀").isValid)
        #expect(three.validate("éé").errors.map(\.code.rawValue) == ["minLength"])
        #expect(three.validate("😀😀😀😀").errors.map(\.code.rawValue) == ["maxLength"])
        #expect(try JSONSchema(#"{"maxLength": 2}"#).validate("e\u{301}e").errors.map(\.code.rawValue) == ["maxLength"])
    }

    /// JSON Schema compares strings by code points: "é" and "e" + U+0301 differ, although Swift's `==` finds them equal.
    @Test func stringsCompareByCodePoints() throws {
        let composed = JSONValue.string("\u{E9}"), decomposed = JSONValue.string("e\u{301}")
        #expect(try JSONSchema(#"{"enum": ["\u00e9"]}"#).validate(decomposed).errors.map(\.code.rawValue) == ["enum"])
        #expect(try JSONSchema(#"{"enum": ["\u00e9"]}"#).validate(composed).isValid)
        #expect(try JSONSchema(#"{"const": ["e\u0301"]}"#).validate([composed]).errors.map(\.code.rawValue) == ["const"])
        #expect(try JSONSchema(#"{"uniqueItems": true}"#).validate([composed, decomposed]).isValid)
        #expect(try JSONSchema(#"{"uniqueItems": true}"#).validate([decomposed, decomposed]).errors.map(\.code.rawValue) == ["uniqueItems"])
    }

    @Test func formatsAssertOnlyWhenAsked() throws {
        let document = #"{"format": "date"}"#
        #expect(try JSONSchema(document).validate(.string("2018-02-30")).isValid)
        let asserting = try JSONSchema(document, options: JSONSchema.Options(assertFormats: true))
        #expect(asserting.validate(.string("2018-02-30")).errors.map(\.code.rawValue) == ["format"])
        #expect(asserting.validate(.string("2020-02-29")).isValid)
    }
}

@Suite struct JSONSchemaCompileErrorTests {
    @Test func anUnresolvableReferenceIsNamedAtCompileTime() {
        #expect {
            try JSONSchema(##"{"properties": {"a": {"$ref": "#/$defs/missing"}}}"##)
        } throws: { error in
            guard let error = error as? VettedError else { return false }
            return error.code == .unresolvableReference && error.parameters["reference"] == .string("#/$defs/missing")
                && error.parameters["schemaLocation"] == .string("/properties/a/$ref")
        }
    }

    @Test func nothingIsFetched() {
        #expect {
            try JSONSchema(#"{"$ref": "https://example.com/schema.json"}"#)
        } throws: { error in
            (error as? VettedError)?.code == .unresolvableReference
        }
        // Handed over, the same reference resolves.
        let resources: [String: JSONValue] = ["https://example.com/schema.json": ["type": "string"]]
        let schema = try? JSONSchema(#"{"$ref": "https://example.com/schema.json"}"#, resources: resources)
        #expect(schema?.validate(1).errors.map(\.code.rawValue) == ["type"])
    }

    @Test func aPatternThatNeedsBacktrackingIsRefusedNamingIt() {
        #expect {
            try JSONSchema(#"{"pattern": "^(a)\\1$"}"#)
        } throws: { error in
            guard let error = error as? VettedError else { return false }
            return error.code == .invalidPattern && error.parameters["schemaLocation"] == .string("/pattern")
        }
    }

    /// Read as absent, each would be a check that never runs.
    @Test(arguments: [
        (#"{"$ref": 5}"#, ""), (#"{"properties": {"a": {"uniqueItems": "yes"}}}"#, "/properties/a"),
        (#"{"properties": []}"#, ""), (#"{"$defs": {"x": {"format": 1}}}"#, "/$defs/x"),
    ])
    func aKeywordOfAnotherJSONTypeIsRefusedNotIgnored(document: String, location: String) {
        #expect {
            try JSONSchema(document)
        } throws: { error in
            guard let error = error as? VettedError else { return false }
            return error.code == .invalidSchema && error.parameters["schemaLocation"] == .string(location)
        }
    }

    @Test func aKeywordOfTheWrongTypeIsRefused() {
        #expect {
            try JSONSchema(#"{"properties": {"a": {"minimum": "1"}}}"#)
        } throws: { error in
            guard let error = error as? VettedError else { return false }
            return error.code == .invalidSchema && error.parameters["schemaLocation"] == .string("/properties/a")
        }
    }
}

@Suite struct HostileSchemaTests {
    @Test func aReferenceCycleThatConsumesNothingStopsAtTheDepthLimit() throws {
        let schema = try JSONSchema(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##)
        let report = schema.validate(1)
        #expect(report.errors.map(\.code) == [.schemaDepthLimitExceeded])
    }

    /// 24 levels of `anyOf` over two references to the next level: 2^24 paths (minutes without
    /// the memo), each level evaluated once per instance location. (A debug build's frames take
    /// about 10 KB a level, so the stack budget, Limits.maxStackBytes, is raised to 512 KiB here:
    /// the default 256 KiB stops near 22 levels, with schemaDepthLimitExceeded.)
    @Test func sharedSubschemasUnderNestedAnyOfAreEvaluatedOnce() throws {
        var definitions: [String] = []
        let levels = 24
        for level in 0..<levels {
            definitions.append(##""l\##(level)": {"anyOf": [{"$ref": "#/$defs/l\##(level + 1)"}, {"$ref": "#/$defs/l\##(level + 1)"}]}"##)
        }
        definitions.append(#""l\#(levels)": {"type": "string"}"#)
        let schema = try JSONSchema(
            ##"{"$defs": {\##(definitions.joined(separator: ","))}, "$ref": "#/$defs/l0"}"##,
            options: JSONSchema.Options(limits: Limits(maxStackBytes: 512 << 10)))
        #expect(schema.validate("x").isValid)
        #expect(schema.validate(1).errors.map(\.code.rawValue) == ["anyOf"])
    }

    @Test func uniqueItemsOnManyItemsHashes() throws {
        let schema = try JSONSchema(#"{"uniqueItems": true}"#)
        var items = (0..<100_000).map { JSONValue.number(JSONNumber($0)) }
        #expect(schema.validate(.array(items)).isValid)
        items.append(.number(JSONNumber(literal: "5.0") ?? JSONNumber(0)))
        let report = schema.validate(.array(items))
        #expect(report.errors.map(\.code.rawValue) == ["uniqueItems"])
        #expect(report.errors.first?.parameters["first"] == .integer(5))
        #expect(report.errors.first?.parameters["second"] == .integer(100_000))
    }

    @Test func aDeepInstanceStopsAtTheDepthLimitInsteadOfTheStack() throws {
        let schema = try JSONSchema(##"{"$defs": {"deep": {"items": {"$ref": "#/$defs/deep"}}}, "$ref": "#/$defs/deep"}"##)
        var value = JSONValue.null
        for _ in 0..<2_000 { value = .array([value]) }
        #expect(schema.validate(value).errors.map(\.code) == [.schemaDepthLimitExceeded])
    }
}

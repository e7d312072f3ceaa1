import Foundation
import Testing
import VettedJSONSchema
import VettedMacros
import VettedTestSupport

/// A type that holds a rule of every kind JSON Schema states exactly, and some it does not.
@Vetted struct SchemaProbe: Codable, Equatable {
    @Vetted enum Level: Int, Codable { case low = 1, mid = 2, high = 3 }
    @Check(.scalarLength(2...8)) var code: String
    @Check(.oneOf(["red", "green"])) var color: String
    @Check(.count(0...3), .unique) var levels: [Level]
    @Check(.range(0.5...9.5)) var ratio: Double
    @Check(.nonEmpty) var labels: [String: Int]
    @Check(.each(.scalarLength(1...3))) var words: [String]
    var inner: TestCreated?
    @Check(.nonBlank) var title: String
    @Check(.utf8Length(0...6)) var short: String?
    @Check(.custom(VettedError.Code("odd"), "must be even") { (value: Int) in value % 2 == 0 }) var even: Int
}

/// Python's `jsonschema` (Draft 2020-12, from PyPI) judges the exported schemas and a generated
/// corpus of valid and mutated documents; it must agree with Vetted on every document, except
/// documents that fail only rules exported as `x-vetted-…` annotations, which are counted by rule.
@Suite(.enabled(if: SchemaOracle.available, "needs python3 with `pip install jsonschema`"))
struct SchemaOracleTests {
    @Test func jsonschemaAgreesWithVetted() throws {
        let seed = SeededGenerator.seed(for: "jsonschemaAgreesWithVetted")
        var generator = SeededGenerator(seed: seed)
        let subjects = SchemaOracle.subjects
        var documents: [(subject: Int, text: String)] = []
        for (index, subject) in subjects.enumerated() {
            for _ in 0..<SchemaOracle.documentsPerSubject {
                var value = subject.valid(&generator)
                let mutations = generator.below(4)
                for _ in 0..<mutations { value = SchemaOracle.mutate(value, &generator) }
                documents.append((index, JSONWriter().string(value)))
            }
        }
        let verdicts = try SchemaOracle.judge(subjects, documents)
        try #require(verdicts.count == documents.count)

        var agreements = 0
        var annotationOnly: [String: Int] = [:]
        var disagreements: [String] = []
        // Vetted's own validator, on the same exported schemas: it must agree with jsonschema on
        // every document (both read `x-vetted-…` as annotations), and so with the decoder up to them.
        let compiled = try subjects.map { try JSONSchema($0.schema) }
        var schemaDisagreements: [String] = []
        for (position, document) in documents.enumerated() {
            let subject = subjects[document.subject]
            let vetted = subject.decode(Data(document.text.utf8))
            let oracle = verdicts[position]
            let report = compiled[document.subject].validate(Data(document.text.utf8))
            if report.isValid != oracle.valid {
                schemaDisagreements.append(
                    "\(subject.name) \(document.text.prefix(300)) — JSONSchema: \(report); jsonschema: \(oracle.valid ? "valid" : oracle.errors.joined(separator: ", "))")
            }
            if vetted.isEmpty == oracle.valid {
                agreements += 1
                continue
            }
            // Vetted refuses, the oracle accepts: only rules written as annotations may explain it.
            if !vetted.isEmpty, oracle.valid, let kinds = SchemaOracle.annotationKinds(explaining: vetted, in: subject.schema) {
                for kind in kinds { annotationOnly[kind, default: 0] += 1 }
                continue
            }
            disagreements.append(
                "\(subject.name) \(document.text.prefix(300)) — Vetted: \(vetted.isEmpty ? "valid" : vetted.map { "\($0.path) \($0.code)" }.joined(separator: ", ")); jsonschema: \(oracle.valid ? "valid" : oracle.errors.joined(separator: ", "))"
            )
        }
        let valid = documents.indices.filter { verdicts[$0].valid }.count
        print(
            "jsonschemaAgreesWithVetted: \(documents.count) documents (\(valid) valid for jsonschema), \(agreements) agreements, "
                + "x-vetted-only differences by rule: \(annotationOnly.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")), "
                + "disagreements: \(disagreements.count)")
        for line in disagreements.prefix(20) { print("  " + line) }
        print("JSONSchema against jsonschema on the same documents: \(documents.count - schemaDisagreements.count) agree, \(schemaDisagreements.count) disagree")
        for line in schemaDisagreements.prefix(20) { print("  " + line) }
        #expect(disagreements.isEmpty)
        #expect(schemaDisagreements.isEmpty)
        #expect(agreements > documents.count / 2)
    }
}

/// The subjects, the corpus and the oracle.
enum SchemaOracle {
    static let available: Bool = (try? Interop.run(["python3", "-c", "import jsonschema"]).status) == 0
    static let script = Interop.root + "/scripts/interop/jsonschema_judge.py"
    static let documentsPerSubject = 1_000

    /// What Vetted found wrong with a document: each error's code and path (empty when it decoded).
    struct Found {
        let path: DocumentPath
        let code: VettedError.Code
    }

    struct Subject {
        let name: String
        let schema: JSONValue
        let valid: (inout SeededGenerator) -> JSONValue
        let decode: (Data) -> [Found]
    }

    static func subject<T: Decodable>(_ type: T.Type, schema: JSONValue, valid: @escaping (inout SeededGenerator) -> JSONValue) -> Subject {
        Subject(name: String(describing: T.self), schema: schema, valid: valid) { data in
            do {
                _ = try VettedJSONDecoder().decode(T.self, from: data)
                return []
            } catch {
                let failure = VettedFailure(error)
                return failure.errors.map { Found(path: $0.path, code: $0.code) }
            }
        }
    }

    static var subjects: [Subject] {
        [
            subject(Listing.self, schema: Listing.jsonSchema()) { generator in
                let created = Double(generator.below(1_000_000))
                return [
                    "id": .number(JSONNumber(1 + generator.below(1_000))), "name": pick(["Guitar", "Amp", "Café", "Tuba"], &generator),
                    "description": "Works well.\nCollect only.", "price": pick(["12", "0.99", "100.5"], &generator), "sold": .bool(generator.below(2) == 0),
                    "url": pick(["https://example.com/1", "https://example.com/a/b"], &generator), "tags": ["music", "vintage"],
                    "created": SchemaOracle.number(created), "last_updated": SchemaOracle.number(created + Double(generator.below(100))),
                ]
            },
            subject(SchemaProbe.self, schema: SchemaProbe.jsonSchema()) { generator in
                var probe: JSONObject = [
                    "code": pick(["ab", "abcdefgh", "é1"], &generator), "color": pick(["red", "green"], &generator),
                    "levels": [1, 3], "ratio": pick([SchemaOracle.number(0.5), 2, SchemaOracle.number(9.5)], &generator), "labels": ["a": 1],
                    "words": ["a", "abc"], "title": "Hello", "even": .number(JSONNumber(2 * generator.below(50))),
                ]
                if generator.below(2) == 0 { probe["inner"] = ["id": 7, "name": "Seven"] }
                if generator.below(2) == 0 { probe["short"] = pick(["", "abc", "é"], &generator) }
                return .object(probe)
            },
            subject(Page.self, schema: Page.jsonSchema()) { generator in
                var page: JSONObject = [pick(["id", "productId", "product_id"], &generator).stringValue ?? "id": .number(JSONNumber(1 + generator.below(999)))]
                if generator.below(2) == 0 { page["limit"] = .number(JSONNumber(1 + generator.below(100))) }
                if generator.below(2) == 0 { page[generator.below(2) == 0 ? "language" : "lang"] = "de" }
                if generator.below(2) == 0 { page["tags"] = ["a"] }
                return .object(page)
            },
            subject(TestEvent.self, schema: TestEvent.jsonSchema()) { generator in
                generator.below(2) == 0
                    ? ["type": "created", "id": .number(JSONNumber(1 + generator.below(999))), "name": "Lamp"]
                    : ["type": "listing.sold", "id": 3, "price": .number(JSONNumber(generator.below(1_000)))]
            },
            subject(WrappedEvent.self, schema: WrappedEvent.jsonSchema()) { generator in
                switch generator.below(3) {
                case 0: ["type": "created", "data": ["id": 4, "name": "Desk"]]
                case 1: ["type": "listing.sold", "data": ["id": 5, "price": 10]]
                default: ["type": "withdrawn"]
                }
            },
        ]
    }

    /// A finite number as a JSON value.
    static func number(_ value: Double) -> JSONValue { JSONNumber(value).map(JSONValue.number) ?? .null }

    static func pick(_ values: [JSONValue], _ generator: inout SeededGenerator) -> JSONValue {
        values[generator.below(values.count)]
    }

    /// Values a mutation puts in place of another: other types, bounds and their neighbours, texts
    /// that break rules of every kind.
    static let replacements: [JSONValue] = [
        .null, true, 0, -1, 1, 2, 3, 4, 7, 1_000, 1_000_001, 2_147_483_648, SchemaOracle.number(1.5), SchemaOracle.number(0.25),
        SchemaOracle.number(9.75), "", " ", "a", "ab", "abcdefghi", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", "red", "blue",
        .string(String(repeating: "x", count: 201)), "tab\there", "bidi\u{202E}txt", "1.25", "1.234", "12a", "12\n", "ab\n",
        "https://example.com/x", "http://example.com/", "https://examp1e.com/", "https://user@example.com/",
        "https://example.com/a-path-that-makes-this-url-longer-than-fifty-bytes", "created", "listing.sold", "other",
        [], [1], [1, 1], [1, 2, 3, 4], ["music"], ["music", "music"], ["nope"], ["a", "abcd"], [:], ["a": 1], ["a": "x"],
        ["id": 1, "name": "x"], ["id": 0, "name": "x"], ["id": 1, "price": -1],
    ] + ["1.0", "1e2", "-0", "2.5e0", "1E+3"].compactMap { JSONNumber(literal: $0).map(JSONValue.number) }

    /// One change somewhere in `value`: a member replaced, removed or added, or an element replaced.
    static func mutate(_ value: JSONValue, _ generator: inout SeededGenerator) -> JSONValue {
        switch value {
        case .object(var object) where !object.isEmpty && generator.below(4) != 0:
            let member = object[generator.below(object.count)]
            switch generator.below(4) {
            case 0: object[member.key] = nil
            case 1: object[member.key] = mutate(member.value, &generator)
            default: object[member.key] = replacements[generator.below(replacements.count)]
            }
            return .object(object)
        case .object(var object):
            let keys = ["extra", "id", "productId", "product_id", "lang", "language", "type", "data", "inner", "short", "note"]
            object[keys[generator.below(keys.count)]] = replacements[generator.below(replacements.count)]
            return .object(object)
        case .array(var elements) where !elements.isEmpty:
            let index = generator.below(elements.count)
            elements[index] = generator.below(2) == 0 ? mutate(elements[index], &generator) : replacements[generator.below(replacements.count)]
            return .array(elements)
        default:
            return replacements[generator.below(replacements.count)]
        }
    }

    struct Verdict {
        let valid: Bool
        let errors: [String]
    }

    /// The oracle's verdict on each document (after it checked every schema against the meta-schema).
    static func judge(_ subjects: [Subject], _ documents: [(subject: Int, text: String)]) throws -> [Verdict] {
        let folder = try Interop.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var schemas = JSONObject()
        for (index, subject) in subjects.enumerated() { schemas["s\(index)"] = subject.schema }
        try Data(JSONWriter().bytes(.object(schemas))).write(to: URL(fileURLWithPath: folder + "/schemas.json"))
        var lines = ""
        for document in documents {
            lines += JSONWriter().string(["schema": .string("s\(document.subject)"), "document": .string(document.text)]) + "\n"
        }
        try Data(lines.utf8).write(to: URL(fileURLWithPath: folder + "/documents.jsonl"))
        let run = try Interop.run(["python3", script, folder + "/schemas.json", folder + "/documents.jsonl", folder + "/verdicts.jsonl"])
        try #require(run.status == 0, "the oracle failed: \(run.output)")
        let text = try String(contentsOfFile: folder + "/verdicts.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let value = try JSONParser().parse(Data(line.utf8))
            return Verdict(valid: value["valid"] == true, errors: value["errors"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }

    /// The codes each annotation kind's rule reports.
    static let codesByKind: [String: Set<String>] = [
        "length": ["tooShort", "tooLong", "empty"],
        "displaySafe": ["nulCharacter", "controlCharacter", "bidiControl", "invisibleCharacter", "nonCharacter"],
        "url": ["invalidURL", "schemeNotAllowed", "hostNotAllowed", "userInfoNotAllowed", "ipHostNotAllowed", "confusableHost", "tooLong"],
        "relation": ["relationViolated"],
        "dateWithin": ["tooEarly", "tooLate", "nonFiniteDate"],
        "nonBlank": ["empty"],
        "patternMaximumUTF8Length": ["tooLong"],
    ]

    /// The annotation kinds that explain every error Vetted found, or `nil` when one
    /// of them is not at a property with an annotation of a kind that reports its code.
    static func annotationKinds(explaining found: [Found], in schema: JSONValue) -> [String]? {
        var kinds: [String] = []
        for error in found {
            guard let property = SchemaOracle.property(at: error.path, in: schema) else { return nil }
            let explaining = property.keys.filter { key in
                guard key.hasPrefix("x-vetted-") else { return false }
                let kind = String(key.dropFirst("x-vetted-".count))
                // A rule that did not describe itself (or a custom one) may report any code.
                return codesByKind[kind]?.contains(error.code.rawValue) ?? !["dateEncoding", "dateFormat", "keyDecoding"].contains(kind)
            }
            guard let kind = explaining.first else { return nil }
            kinds.append(String(kind.dropFirst("x-vetted-".count)))
        }
        return kinds
    }

    /// The schema of the property at `path`, following `$ref`, `items`, `anyOf` and `oneOf`.
    static func property(at path: DocumentPath, in document: JSONValue) -> JSONObject? {
        let definitions = document["$defs"]?.objectValue ?? [:]
        func resolve(_ schema: JSONObject) -> [JSONObject] {
            var found = [schema]
            if let reference = schema["$ref"]?.stringValue, let name = reference.split(separator: "/").last,
                let target = definitions[String(name)]?.objectValue
            {
                found += resolve(target)
            }
            for keyword in ["anyOf", "oneOf", "allOf"] {
                for case .object(let branch) in schema[keyword]?.arrayValue ?? [] { found += resolve(branch) }
            }
            return found
        }
        var current = resolve(document.objectValue ?? [:])
        for component in path.components {
            var next: [JSONObject] = []
            for schema in current {
                switch component {
                case .key(let key):
                    if let property = schema["properties"]?[key]?.objectValue { next += resolve(property) }
                case .index:
                    if let items = schema["items"]?.objectValue { next += resolve(items) }
                }
            }
            current = next
        }
        return current.first { $0.keys.contains { $0.hasPrefix("x-vetted-") } } ?? current.first
    }
}

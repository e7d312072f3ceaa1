import Foundation
import Testing
import VettedJSONSchema

/// Two independent validators, PyPI's `jsonschema` (Python) and `jsonschema-rs` (Rust), each
/// judge the suite's schemas with every test instance and with mutations of it (each scalar
/// changed, each container grown and shrunk, at the top and one level down); Vetted must
/// agree with each on every case it can judge, apart from the differences listed with
/// their reasons.
@Suite struct DifferentialTests {
    @Test(.enabled(if: SuiteOracle.available(.jsonschema), "needs python3 with `pip install jsonschema` and the suite at ../shared"))
    func jsonschemaAgreesOnTheSuiteAndItsMutations() throws {
        try agree(with: .jsonschema)
    }

    @Test(.enabled(if: SuiteOracle.available(.jsonschemaRs), "needs python3 with `pip install jsonschema-rs` and the suite at ../shared"))
    func jsonschemaRsAgreesOnTheSuiteAndItsMutations() throws {
        try agree(with: .jsonschemaRs)
    }

    func agree(with judge: SuiteOracle.Judge) throws {
        var cases: [(draft: String, file: String, schema: JSONValue, instance: JSONValue)] = []
        for draft in ["draft2020-12", "draft7"] {
            let directory = OfficialSuite.folder.appendingPathComponent("tests/\(draft)")
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).filter({ $0.hasSuffix(".json") }).sorted() {
                let groups = try JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(file)))
                for group in groups.arrayValue ?? [] {
                    let schema = group["schema"] ?? .null
                    for test in group["tests"]?.arrayValue ?? [] {
                        for instance in SuiteOracle.mutations(of: test["data"] ?? .null) {
                            cases.append((draft, file, schema, instance))
                        }
                    }
                }
            }
        }
        let verdicts = try SuiteOracle.judge(cases.map { ($0.draft, $0.schema, $0.instance) }, by: judge)
        try #require(verdicts.count == cases.count)
        var agreed = 0
        var unjudged = 0
        var disagreements: [String] = []
        var explained: [String: Int] = [:]
        var compiled: [String: JSONSchema] = [:]
        for (position, entry) in cases.enumerated() {
            guard let oracle = verdicts[position] else {
                unjudged += 1
                continue
            }
            let key = entry.draft + JSONWriter().string(entry.schema)
            let schema: JSONSchema
            if let known = compiled[key] {
                schema = known
            } else {
                let options = JSONSchema.Options(defaultDraft: entry.draft == "draft7" ? .draft7 : .draft2020_12)
                schema = try JSONSchema(entry.schema, resources: OfficialSuite.remotes, options: options)
                compiled[key] = schema
            }
            if schema.validate(entry.instance).isValid == oracle {
                agreed += 1
            } else if judge.knownDifferences[entry.file] != nil {
                explained[entry.file, default: 0] += 1
            } else {
                disagreements.append("\(entry.draft)/\(entry.file): \(JSONWriter().string(entry.instance).prefix(120)) — \(judge.rawValue): \(oracle)")
            }
        }
        print("\(judge.rawValue) on the suite and its mutations: \(cases.count) cases, \(agreed) agree, \(unjudged) it could not judge, "
                + "explained differences: \(explained.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")), \(disagreements.count) disagree")
        for line in disagreements.prefix(20) { print("  " + line) }
        #expect(disagreements.isEmpty)
        #expect(agreed > cases.count / 2)
    }
}

enum SuiteOracle {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/interop/jsonschema_suite_judge.py")

    /// An independent validator, run by the script.
    enum Judge: String {
        case jsonschema
        case jsonschemaRs = "jsonschema-rs"

        var module: String { self == .jsonschema ? "jsonschema, referencing" : "jsonschema_rs" }

        /// Where Vetted and this validator answer differently on purpose, by suite file, with the reason.
        var knownDifferences: [String: String] {
            switch self {
            case .jsonschema: SuiteOracle.knownDifferences
            case .jsonschemaRs: SuiteOracle.knownRustDifferences
            }
        }
    }

    static func available(_ judge: Judge) -> Bool {
        guard OfficialSuite.present else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(judge.module)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Where Vetted and jsonschema answer differently on purpose, by suite file, with the reason.
    /// (Patterns with `\\p{…}`, which Python's `re` cannot read, are cases it could not judge.)
    static let knownDifferences: [String: String] = [
        "const.json": "numbers are compared exactly as written: 9007199254740992.05 is not 9007199254740992, which jsonschema's floats make equal",
        "vocabulary.json": "a metaschema that leaves out the validation vocabulary turns its keywords off, as the suite expects; jsonschema applies them",
    ]

    /// Where Vetted and jsonschema-rs answer differently on purpose, by suite file, with the reason.
    static let knownRustDifferences: [String: String] = [
        "const.json": "numbers are compared exactly as written: 9007199254740992.05 is not 9007199254740992; the judge hands jsonschema-rs what Python's json.loads read, a float that makes them equal",
    ]

    /// The instance, then one change at a time: at the top, and to the first member or element.
    static func mutations(of value: JSONValue) -> [JSONValue] {
        var result = [value] + changes(of: value)
        switch value {
        case .array(let elements) where !elements.isEmpty:
            for changed in changes(of: elements[0]) {
                var copy = elements
                copy[0] = changed
                result.append(.array(copy))
            }
        case .object(let object) where !object.isEmpty:
            for changed in changes(of: object[0].value) {
                var copy = object
                copy[object[0].key] = changed
                result.append(.object(copy))
            }
        default:
            break
        }
        return result
    }

    private static func changes(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .null: return [.bool(false), 0]
        case .bool(let flag): return [.bool(!flag), .null]
        case .number(let number):
            let literal = number.literal.hasPrefix("-") ? String(number.literal.dropFirst()) : "-" + number.literal
            return [JSONNumber(literal: literal).map(JSONValue.number) ?? .null, .string(number.literal), JSONNumber(literal: number.literal + "5").map(JSONValue.number) ?? .null]
        case .string(let text): return [.string(text + "x"), .string(""), .number(JSONNumber(text.unicodeScalars.count))]
        case .array(let elements): return [.array(elements + [.null]), .array(Array(elements.dropLast())), .object(JSONObject())]
        case .object(let object):
            var grown = object
            grown["vettedExtra"] = 1
            var shrunk = object
            if let first = object.first { shrunk[first.key] = nil }
            return [.object(grown), .object(shrunk), .array([])]
        }
    }

    /// One Python process judges every case: `true`/`false`, or `nil` where it could not.
    static func judge(_ cases: [(draft: String, schema: JSONValue, instance: JSONValue)], by judge: Judge) throws -> [Bool?] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("suite-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cases.jsonl")
        let output = folder.appendingPathComponent("verdicts.jsonl")
        let lines = cases.map { entry -> String in
            JSONWriter().string(["draft": .string(entry.draft), "schema": entry.schema, "instance": entry.instance])
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path, OfficialSuite.folder.appendingPathComponent("remotes").path, output.path, judge.rawValue]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        let verdicts = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        return try verdicts.map { line in try JSONValue(parsing: String(line))["valid"]?.boolValue }
    }
}

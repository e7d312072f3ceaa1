import Foundation
import Testing
import VettedCore
import VettedJSON
import VettedJSONSchema

/// JSON-Schema-Test-Suite (MIT), read from ../shared; skipped, saying so, when absent.
enum OfficialSuite {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/JSON-Schema-Test-Suite")
    static var present: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("tests/draft2020-12").path) }
    static let absent: Comment = "JSON-Schema-Test-Suite is not at ../shared/fixtures/JSON-Schema-Test-Suite"

    /// Every file of `remotes/`, as the suite's harness serves them: at http://localhost:1234/.
    static let remotes: [String: JSONValue] = {
        var result: [String: JSONValue] = [:]
        let root = folder.appendingPathComponent("remotes")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return result }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".json"), let data = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path),
                let value = try? JSONValue(parsing: data)
            else { continue }
            result["http://localhost:1234/" + relative] = value
        }
        return result
    }()

    struct Outcome {
        var passed = 0
        var failed: [String] = []
    }

    /// Runs every group of every file in `tests/<draft>/<subfolder>`.
    static func run(_ draft: String, _ subfolder: String = "", assertFormats: Bool = false) throws -> Outcome {
        let directory = folder.appendingPathComponent("tests/\(draft)/\(subfolder)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        let options = JSONSchema.Options(defaultDraft: draft == "draft7" ? .draft7 : .draft2020_12, assertFormats: assertFormats)
        var outcome = Outcome()
        for file in files {
            let groups = try JSONValue(parsing: Data(contentsOf: directory.appendingPathComponent(file)))
            for group in groups.arrayValue ?? [] {
                let description = group["description"]?.stringValue ?? "?"
                let tests = group["tests"]?.arrayValue ?? []
                let schema: JSONSchema
                do {
                    schema = try JSONSchema(group["schema"] ?? .null, resources: remotes, options: options)
                } catch {
                    outcome.failed.append("\(file): \(description): does not compile: \(error)")
                    continue
                }
                for test in tests {
                    let expected = test["valid"]?.boolValue ?? false
                    let report = schema.validate(test["data"] ?? .null)
                    if report.isValid == expected {
                        outcome.passed += 1
                    } else {
                        outcome.failed.append(
                            "\(file): \(description): \(test["description"]?.stringValue ?? "?"): expected \(expected ? "valid" : "invalid") \(report)")
                    }
                }
            }
        }
        return outcome
    }
}

@Suite struct OfficialSuiteTests {
    @Test(.enabled(if: OfficialSuite.present, OfficialSuite.absent))
    func everyRequiredTestOfDraft2020_12Passes() throws {
        let outcome = try OfficialSuite.run("draft2020-12")
        print("draft2020-12 required: \(outcome.passed) passed, \(outcome.failed.count) failed")
        for failure in outcome.failed { print("  " + failure) }
        #expect(outcome.failed.isEmpty)
    }

    @Test(.enabled(if: OfficialSuite.present, OfficialSuite.absent))
    func everyRequiredTestOfDraft7Passes() throws {
        let outcome = try OfficialSuite.run("draft7")
        print("draft7 required: \(outcome.passed) passed, \(outcome.failed.count) failed")
        for failure in outcome.failed { print("  " + failure) }
        #expect(outcome.failed.isEmpty)
    }
}

@Suite struct OfficialSuiteOptionalTests {
    @Test(.enabled(if: OfficialSuite.present, OfficialSuite.absent))
    func optionalTestsAreCounted() throws {
        for draft in ["draft2020-12", "draft7"] {
            let optional = try OfficialSuite.run(draft, "optional")
            let formats = try OfficialSuite.run(draft, "optional/format", assertFormats: true)
            print("\(draft) optional: \(optional.passed) passed, \(optional.failed.count) failed; formats asserted: \(formats.passed) passed, \(formats.failed.count) failed")
            for failure in optional.failed + formats.failed { print("  " + failure.prefix(300)) }
        }
    }
}

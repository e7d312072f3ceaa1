import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedJSON

/// Third-party fixtures live beside the repository in `../shared`, never in it.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let jsonTestSuite = repositoryRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/JSONTestSuite/test_parsing")

    static var jsonTestSuiteAvailable: Bool {
        FileManager.default.fileExists(atPath: jsonTestSuite.path)
    }

    static func jsonTestSuiteFiles(prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: jsonTestSuite.path)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: jsonTestSuite.appendingPathComponent(name)))
    }
}

/// Parses and validates `input`; both must fail with exactly `code` at `offset` and `path`.
func expectFailure(
    _ input: [UInt8], _ code: VettedError.Code, at offset: Int, path: DocumentPath = [],
    parser: JSONParser = JSONParser(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let expected = VettedError(code: code, offset: offset, path: path)
    let parseError = thrownError({ () throws(VettedError) in _ = try parser.parse(input) }, sourceLocation: sourceLocation)
    #expect(parseError == expected, "parse: \(parseError?.description ?? "no error")", sourceLocation: sourceLocation)
    let validateError = thrownError({ () throws(VettedError) in try parser.validate(input) }, sourceLocation: sourceLocation)
    #expect(validateError == expected, "validate: \(validateError?.description ?? "no error")", sourceLocation: sourceLocation)
}

func expectFailure(
    _ input: String, _ code: VettedError.Code, at offset: Int, path: DocumentPath = [],
    parser: JSONParser = JSONParser(), sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectFailure(Array(input.utf8), code, at: offset, path: path, parser: parser, sourceLocation: sourceLocation)
}


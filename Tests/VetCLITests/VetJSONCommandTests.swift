import Foundation
import Testing
import Vetted
import VettedTestSupport

/// Runs the built `vet` and checks its output and exit code.
struct Vet {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// `vet` is built beside the test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("vet")
    }()

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        let out = try readAll(output.fileHandleForReading)
        let err = try readAll(error.fileHandleForReading)
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `vet` with standard output on `/dev/full` (every write fails with ENOSPC).
    /// The status is `nil` when the process did not exit normally (a signal, a trap).
    static func runIntoFullDisk(_ arguments: [String], stdin: [UInt8] = []) throws -> (status: Int32?, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: stdin)
        try input.fileHandleForWriting.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason == .exit ? process.terminationStatus : nil, stderr)
    }

    static let fullDiskMessage = "vet: cannot write the output: no space left on device (errno 28)\n"

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vet-test-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        return url.path
    }
}

@Suite(.serialized) struct VetJSONCommandTests {
    @Test func validSampleIsPrettyPrintedWithExitZero() throws {
        let sample = Vet.repositoryRoot.appendingPathComponent("Samples/listings.json").path
        let result = try Vet.run(["json", sample])
        #expect(result.status == 0)
        let printed = try JSONParser().parse(result.stdout)
        let original = try JSONParser().parse(Data(contentsOf: URL(fileURLWithPath: sample)))
        #expect(printed == original)
        #expect(result.stdout.hasPrefix("[\n  {\n    \"id\": 1,"))
    }

    @Test func compactPrintsOneLine() throws {
        let result = try Vet.run(["json", "--compact", "-"], stdin: Array("{ \"a\" : [ 1 , 2 ] }".utf8))
        #expect(result.status == 0)
        #expect(result.stdout == "{\"a\":[1,2]}\n")
    }

    @Test func invalidInputGivesACompilerStyleDiagnosticAndExitOne() throws {
        let path = try Vet.temporaryFile(Array("{\"id\": 1,\n \"id\": 2}".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Vet.run(["json", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == """
                \(path):2:2: error: duplicate key "id" (first at offset 1, again at offset 11) [duplicateKey at $.id]
                     "id": 2}
                     ^
                \(path):1:2: note: first seen here

                """)
    }

    @Test func jsonDiagnosticsAreMachineReadable() throws {
        let result = try Vet.run(["json", "--diagnostics", "json", "-"], stdin: Array("[1,\n2,]".utf8))
        #expect(result.status == 1)
        let diagnostic = try JSONParser().parse(result.stdout)
        #expect(diagnostic["valid"] == false)
        #expect(diagnostic["file"] == "<stdin>")
        #expect(diagnostic["error"]?["code"] == "trailingComma")
        #expect(diagnostic["error"]?["offset"] == 5)
        #expect(diagnostic["error"]?["line"] == 2)
        #expect(diagnostic["error"]?["column"] == 2)
        #expect(diagnostic["error"]?["path"] == "$[1]")
    }

    @Test func aStreamOfLinesPrintsEachValidRecordAndLocatesEachFailure() throws {
        let input = "{\"a\":1}\n{\"a\":2,}\n\n[1, 2]\n{\"a\":\"\u{1B}[2J\"\n"
        let result = try Vet.run(["json", "--lines", "-"], stdin: Array(input.utf8))
        #expect(result.status == 1)
        #expect(result.stdout == "{\"a\":1}\n[1,2]\n")
        #expect(
            result.stderr == """
                <stdin>:2: error: trailing comma before '}' [trailingComma at $[1].a] (byte 14)
                    {"a":2,}
                          ^
                <stdin>:5: error: raw control character U+001B in string; escape it [controlCharacterInString at $[3].a] (byte 31)
                    {"a":"\\u{1B}[2J"
                          ^
                <stdin>: 4 records, 2 failed

                """)
        let valid = try Vet.run(["json", "--seq", "-"], stdin: Array("\u{1E}{\"a\":1}\n\u{1E}[2]\n".utf8))
        #expect(valid.status == 0)
        #expect(valid.stdout == "{\"a\":1}\n[2]\n")
        #expect(valid.stderr == "<stdin>: 2 records, 0 failed\n")
    }

    @Test func aBrokenArrayEndsTheStreamWithItsPlace() throws {
        let result = try Vet.run(["json", "--array", "--diagnostics", "json", "-"], stdin: Array("[{\"a\":1}, {\"a\":1,\"a\":2},\n 3 4]".utf8))
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map { try? JSONParser().parse(Data($0.utf8)) }
        #expect(lines.count == 2)
        #expect(lines.first??["record"] == 1)
        #expect(lines.first??["error"]?["code"] == "duplicateKey")
        #expect(lines.first??["error"]?["offset"] == 17)
        #expect(lines.last??["error"]?["code"] == "missingComma")
        #expect(lines.last??["error"]?["offset"] == 28)
        #expect(lines.last??["error"]?["line"] == 2)
        #expect(lines.last??["error"]?["path"] == "$[3]")
    }

    @Test func aRecordPastTheCapFailsAndTheStreamGoesOn() throws {
        let input = String(repeating: "x", count: 3000) + "\n{\"ok\":true}\n"
        let result = try Vet.run(["json", "--lines", "--max-record-bytes", "100", "-"], stdin: Array(input.utf8))
        #expect(result.status == 1)
        #expect(result.stdout == "{\"ok\":true}\n")
        #expect(
            result.stderr == """
                <stdin>:1: error: record is longer than the record limit of 100 bytes; its bytes were passed over [recordTooLarge at $[0]] (byte 100)
                <stdin>: 2 records, 1 failed

                """)
    }

    @Test func aStreamRefusesWhatNeedsTheWholeInput() throws {
        let digest = String(repeating: "0", count: 64)
        let result = try Vet.run(["json", "--lines", "--sha256", digest, "-"], stdin: Array("{}\n".utf8))
        #expect(result.status == 64)
        #expect(result.stderr.contains("do not apply to a stream of records"))
        let both = try Vet.run(["json", "--lines", "--array", "-"], stdin: Array("{}\n".utf8))
        #expect(both.status == 64)
    }

    @Test func quietPrintsNothing() throws {
        let valid = try Vet.run(["json", "--quiet", "-"], stdin: Array("[1]".utf8))
        #expect(valid.status == 0)
        #expect(valid.stdout.isEmpty && valid.stderr.isEmpty)
        let invalid = try Vet.run(["json", "--quiet", "-"], stdin: Array("[1".utf8))
        #expect(invalid.status == 1)
        #expect(invalid.stdout.isEmpty && invalid.stderr.isEmpty)
    }

    @Test(arguments: [
        (["--max-bytes", "3"], "[1,2]", "inputSizeLimitExceeded"),
        (["--max-depth", "1"], "[[1]]", "depthLimitExceeded"),
        (["--max-string-bytes", "2"], "[\"abc\"]", "stringLengthLimitExceeded"),
        (["--max-members", "1"], "[1,2]", "memberLimitExceeded"),
        (["--max-values", "2"], "[1,2]", "valueLimitExceeded"),
        (["--max-number-length", "2"], "[123]", "numberLengthLimitExceeded"),
        ([], "{\"a\":1,\"a\":2}", "duplicateKey"),
    ])
    func everyLimitHasAFlag(flags: [String], input: String, code: String) throws {
        let result = try Vet.run(["json", "--diagnostics", "json"] + flags + ["-"], stdin: Array(input.utf8))
        #expect(result.status == 1)
        #expect(try JSONParser().parse(result.stdout)["error"]?["code"] == .string(code))
    }

    @Test func oversizeFileIsRefusedFromItsSize() throws {
        let path = try Vet.temporaryFile(Array(repeating: UInt8(ascii: " "), count: 4096))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Vet.run(["json", "--diagnostics", "json", "--max-bytes", "100", path])
        #expect(result.status == 1)
        #expect(try JSONParser().parse(result.stdout)["error"]?["code"] == "inputSizeLimitExceeded")
    }

    @Test func duplicateKeyPolicies() throws {
        let input = Array("{\"a\":1,\"a\":2}".utf8)
        #expect(try Vet.run(["json", "--compact", "--duplicate-keys", "first", "-"], stdin: input).stdout == "{\"a\":1}\n")
        #expect(try Vet.run(["json", "--compact", "--duplicate-keys", "last", "-"], stdin: input).stdout == "{\"a\":2}\n")
    }

    @Test func relaxingFlags() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[]".utf8)
        #expect(try Vet.run(["json", "--quiet", "-"], stdin: bom).status == 1)
        #expect(try Vet.run(["json", "--quiet", "--allow-bom", "-"], stdin: bom).status == 0)
        let latin1: [UInt8] = [0x5B, 0x22, 0xE9, 0x22, 0x5D]
        #expect(try Vet.run(["json", "--quiet", "-"], stdin: latin1).status == 1)
        #expect(try Vet.run(["json", "--compact", "--allow-invalid-utf8", "-"], stdin: latin1).stdout == "[\"\u{FFFD}\"]\n")
        let lone = Array("[\"\\ud800\"]".utf8)
        #expect(try Vet.run(["json", "--quiet", "--allow-lone-surrogates", "-"], stdin: lone).status == 0)
    }

    @Test func usageErrorsExitSixtyFour() throws {
        #expect(try Vet.run(["json"]).status == 64)
        #expect(try Vet.run(["json", "--max-depth", "deep", "-"]).status == 64)
        #expect(try Vet.run(["json", "--max-depth", "-1", "-"]).status == 64)
        #expect(try Vet.run(["json", "--duplicate-keys", "sometimes", "-"]).status == 64)
    }

    @Test func unreadableInputExitsSeventyFour() throws {
        let missing = try Vet.run(["json", "/nonexistent/vetted/file.json"])
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("cannot read"))
        #expect(try Vet.run(["json", FileManager.default.temporaryDirectory.path]).status == 74)
    }

    @Test func diagnosticsEscapeHostileInput() throws {
        let hostile: [UInt8] = Array("[\"ok\", \u{1B}[31mred".utf8) + [0xFF]
        let result = try Vet.run(["json", "-"], stdin: hostile)
        #expect(result.status == 1)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains("\\u{1B}[31mred\\xFF"))
    }

    @Test func deeplyNestedInputIsADiagnosticNotACrash() throws {
        let result = try Vet.run(["json", "--max-depth", "1024", "-"], stdin: Array(repeating: UInt8(ascii: "["), count: 100_000))
        #expect(result.status == 1)
        #expect(result.stderr.contains("depthLimitExceeded"))
        // The path of a deep error is capped as every path is (before: 1.6 KB of `[0][0]…`).
        let line = try #require(result.stderr.split(separator: "\n").first)
        #expect(line.utf8.count < 400)
        #expect(line.contains("at $[0][0]") && line.contains("…"))
    }

    /// A depth above the hard ceiling is refused, never silently capped (before: 5000 ran with 1024).
    @Test func aDepthAboveTheCeilingIsRefused() throws {
        let result = try Vet.run(["json", "--max-depth", "5000", "-"], stdin: Array("[]".utf8))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--max-depth 5000 is above the hard ceiling of 1024 levels; give at most 1024"))
        #expect(try Vet.run(["json", "--max-depth", "1024", "-"], stdin: Array("[]".utf8)).status == 0)
    }

    /// `--help` wraps at words: a paragraph is one line in the source, so the parser's own wrapping
    /// is the only one (before: "prints a" / "compiler-style diagnostic…", hard breaks mid-sentence).
    @Test func helpWrapsAtWords() throws {
        for command in [["json"], ["plist"], ["archive", "inspect"], ["digest"], ["keygen"], ["verify-http"]] {
            let help = try Vet.run(command + ["--help"]).stdout
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count > 3, "\(command)")
            // Text before USAGE is the overview and discussion, wrapped by the parser to fit 80 columns:
            // every line but a paragraph's last is filled close to the width.
            let prose = lines.prefix { !$0.hasPrefix("USAGE:") }
            for (line, next) in zip(prose, prose.dropFirst()) where !line.isEmpty && !next.isEmpty {
                let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
                #expect(line.count + 1 + firstWord.count >= 80, "\(command): \"\(line)\" is cut before \"\(firstWord)\"")
            }
        }
    }
}

@Suite(.serialized) struct VetVersionTests {
    @Test func versionIsPrinted() throws {
        let result = try Vet.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }
}

/// `--format` picks the output in every subcommand; `--diagnostics` the form of errors.
@Suite struct VetFormatOptionTests {
    @Test func formatIsTheOutputAndDiagnosticsTheErrors() throws {
        let valid = try Vet.run(["json", "--format", "json", "--compact", "-"], stdin: Array("[1, 2]".utf8))
        #expect(valid.status == 0)
        #expect(valid.stdout == "[1,2]\n")
        #expect(try Vet.run(["json", "--format", "text", "-"], stdin: Array("[1]".utf8)).status == 64)
        let invalid = try Vet.run(["json", "--diagnostics", "json", "-"], stdin: Array("[1,]".utf8))
        #expect(invalid.status == 1)
        #expect(try JSONParser().parse(invalid.stdout)["valid"] == .bool(false))
    }
}

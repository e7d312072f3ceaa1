import Foundation
import Testing
import VettedTestSupport

/// Rules the compiler refuses: each declaration is type-checked by `swiftc`
/// against this build's modules and macro plugin, and the error it prints is
/// the one a user sees.
@Suite(.enabled(if: compileToolchain != nil, "needs this build's modules, the macro plugin and swiftc"))
struct CompileErrorTests {
    static var toolchain: (build: URL, swiftc: URL)? { compileToolchain }
}

/// The build folder (where this test binary, the modules and the plugin are) and swiftc.
let compileToolchain: (build: URL, swiftc: URL)? = {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let plugin = build.appendingPathComponent("VettedMacrosPlugin-tool")
        let module = build.appendingPathComponent("Modules/VettedMacros.swiftmodule")
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin"]
        guard FileManager.default.isExecutableFile(atPath: plugin.path), FileManager.default.fileExists(atPath: module.path),
            let swiftc = paths.map({ URL(fileURLWithPath: $0).appendingPathComponent("swiftc") })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { return nil }
        return (build, swiftc)
}()

extension CompileErrorTests {
    /// The errors `swiftc -typecheck` prints for `source` (empty when it compiles).
    static func errors(_ source: String) throws -> [String] {
        guard let toolchain else { return ["no toolchain"] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-compile-\(UUID().uuidString).swift")
        try Data(("import Foundation\nimport VettedMacros\n" + source).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = toolchain.swiftc
        process.arguments = [
            "-typecheck", file.path, "-I", toolchain.build.appendingPathComponent("Modules").path,
            "-load-plugin-executable", toolchain.build.appendingPathComponent("VettedMacrosPlugin-tool").path + "#VettedMacrosPlugin",
        ]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: try readAll(output.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        // The first line of each error, without its location.
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: ": error: "), !line.hasPrefix(" ") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    @Test func aRuleOfAnotherTypeDoesNotCompile() throws {
        #expect(
            try Self.errors("@Vetted struct T: Decodable { @Check(.length(1...5)) var id: Int }")
                == ["referencing static method 'length' on 'Rule' requires the types 'Int' and 'String' be equivalent"])
        #expect(
            try Self.errors("@Vetted struct T: Decodable { @Check(.count(1...5)) var id: Int? }")
                == ["referencing static method 'count' on 'Rule' requires that 'Int' conform to 'Collection'"])
    }

    @Test func aRelationBetweenTypesThatDifferDoesNotCompile() throws {
        #expect(
            try Self.errors("@Vetted struct T: Decodable { var created: Date; @Check(.notBefore(\\T.created)) var count: Int }")
                == ["cannot convert value of type 'KeyPath<T, Date>' to expected argument type 'KeyPath<T, Int>'"])
    }

    @Test func aRelationToAPropertyThatIsNotDecodedDoesNotCompile() throws {
        #expect(
            try Self.errors("@Vetted struct T: Decodable { var created: Date; @Check(.notBefore(\\T.creatd)) var updated: Date }")
                == [
                    "a relation to 'creatd', which is not a coded stored property: its value is never decoded, so the relation could never run (from macro 'Vetted ')",
                    "value of type 'T' has no member 'creatd'",
                ])
        // One to a computed property compiled, and validate() then passed with the relation broken.
        #expect(
            try Self.errors("@Vetted struct T: Decodable { var stamp: Date; var created: Date { stamp }; @Check(.notBefore(\\T.created)) var updated: Date }")
                == ["a relation to 'created', which is not a coded stored property: its value is never decoded, so the relation could never run (from macro 'Vetted ')"])
    }

    @Test func wellTypedRulesCompile() throws {
        #expect(
            try Self.errors(
                """
                @Vetted struct T: Decodable {
                    @Check(.range(1...5)) var count: Int?
                    @Check(.count(1...3), .each(.oneOf(["a"]))) var tags: [String]
                    var created: Date
                    @Check(.notBefore(\\T.created)) var updated: Date
                }
                """) == [])
    }
}

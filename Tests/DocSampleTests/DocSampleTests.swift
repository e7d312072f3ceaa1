import Foundation
import Testing

/// Every Swift code block in the README and the DocC articles is compiled and
/// run: it appears, line for line, in one of this target's files, between
/// `// sample: FILE#N` and `// end sample` (N counts the file's ```swift blocks
/// from 1; a block may be split over several regions with the same key, joined
/// in order, when part of it must sit at file scope and part in a function).
/// The test functions around the regions run them on real inputs and check
/// what they print or return. Change a sample in a document, and this test
/// fails until the compiled copy says the same.
@Suite struct DocSampleTests {
    /// Blocks not compiled here, each with the reason and what checks it instead.
    static let checkedElsewhere: [String: String] = [
        "README.md#1": "a Package.swift fragment: scripts/new-user-check.sh builds a fresh package from it in CI",
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/DocSampleTests
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every article of every DocC catalog.
    static func documents() throws -> [String] {
        var paths = ["README.md"]
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)
        while let path = files?.nextObject() as? String {
            if path.hasSuffix(".md") && path.contains(".docc/") { paths.append("Sources/" + path) }
        }
        return paths.sorted()
    }

    /// The ```swift blocks of a document, keyed `FILE#N` (FILE is the document's last path component).
    static func blocks(of document: String) throws -> [(key: String, lines: [String])] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let name = (document as NSString).lastPathComponent
        var result: [(key: String, lines: [String])] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil {
                if line.trimmingCharacters(in: .whitespaces) == "```swift" { current = [] }
            } else if line.trimmingCharacters(in: .whitespaces) == "```" {
                result.append((key: "\(name)#\(result.count + 1)", lines: current ?? []))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return result
    }

    /// The test folders whose sources hold samples: this target's, and the adapters' (whose
    /// samples need a framework this target does not build).
    static let sampleFolders = ["Tests/DocSampleTests", "Tests/VettedHummingbirdTests", "Tests/VettedVaporTests", "Tests/VettedOpenAPITests"]

    /// The regions of the sample folders' sources, joined per key.
    static func regions() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for folderPath in sampleFolders {
        let folder = root.appendingPathComponent(folderPath)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            var key: String?
            var lines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// sample: ") {
                    key = String(trimmed.dropFirst("// sample: ".count))
                    lines = []
                } else if trimmed == "// end sample", let open = key {
                    result[open, default: []] += normalized(lines)
                    key = nil
                } else if key != nil {
                    lines.append(line)
                }
            }
        }
        }
        return result
    }

    /// Lines without their common indentation and trailing spaces.
    static func normalized(_ lines: [String]) -> [String] {
        let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return lines.map { line in
            var trimmed = line
            while trimmed.hasSuffix(" ") { trimmed.removeLast() }
            return trimmed.count >= common ? String(trimmed.dropFirst(common)) : trimmed
        }
    }

    @Test func everySampleInTheDocsIsCompiledHere() throws {
        let regions = try Self.regions()
        var seen: Set<String> = []
        for document in try Self.documents() {
            for block in try Self.blocks(of: document) {
                seen.insert(block.key)
                if Self.checkedElsewhere[block.key] != nil { continue }
                guard let compiled = regions[block.key] else {
                    Issue.record("\(document): block \(block.key) is not compiled by any test (add it between `// sample: \(block.key)` and `// end sample`)")
                    continue
                }
                let expected = Self.normalized(block.lines)
                if compiled != expected {
                    let line = zip(compiled, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(compiled.count, expected.count)
                    Issue.record("""
                        \(block.key) differs from its compiled copy at line \(line + 1) of the block:
                          doc:      \(line < expected.count ? expected[line] : "<end>")
                          compiled: \(line < compiled.count ? compiled[line] : "<end>")
                        """)
                }
            }
        }
        for key in regions.keys where !seen.contains(key) {
            Issue.record("region \(key) matches no block in the docs (renumbered or removed?)")
        }
        for key in Self.checkedElsewhere.keys where !seen.contains(key) {
            Issue.record("\(key) is listed as checked elsewhere but no longer exists")
        }
    }
}

import Foundation
import Testing
import Vetted
import VettedTestSupport

@Suite(.serialized) struct VetPlistCommandTests {
    static let sample: PlistValue = .dictionary([
        "name": .string("Guitar"), "price": .integer(PlistInteger(150)), "tags": .array([.string("music")]),
        "created": .date(Date(timeIntervalSince1970: 1_528_105_260)), "blob": .data(Data([1, 2, 3])),
        "ratio": .real(0.5), "ref": .uid(7), "sold": .bool(false),
    ])

    @Test func binaryPlistPrintsAsJSON() throws {
        let result = try Vet.run(["plist", "--compact", "-"], stdin: PlistWriter.binary(Self.sample))
        #expect(result.status == 0)
        let json = try JSONParser().parse(result.stdout)
        #expect(json["name"] == "Guitar")
        #expect(json["price"] == 150)
        #expect(json["tags"] == ["music"])
        #expect(json["created"] == "2018-06-04T09:41:00Z")
        #expect(json["blob"] == "AQID")
        #expect(json["ref"] == ["CF$UID": 7])
        #expect(json["sold"] == false)
    }

    @Test func xmlOutputReadsBackEqual() throws {
        let result = try Vet.run(["plist", "--format", "xml", "-"], stdin: PlistWriter.binary(Self.sample))
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(try PlistParser().parse(Array(result.stdout.utf8)) == Self.sample)
    }

    @Test func damagedInputGivesADiagnosticAndExitOne() throws {
        var bytes = PlistWriter.binary(Self.sample)
        bytes[bytes.count - 24] = 0xFF  // top byte of the object count: now impossibly large
        let result = try Vet.run(["plist", "--diagnostics", "json", "-"], stdin: bytes)
        #expect(result.status == 1)
        let diagnostic = try JSONParser().parse(result.stdout)
        #expect(diagnostic["error"]?["code"] == "invalidTrailer")
        #expect(diagnostic["error"]?["offset"] == .number(JSONNumber(bytes.count - 24)))
        // A binary plist has no lines: the place is its byte offset (before: a line and column).
        #expect(diagnostic["error"]?["line"] == nil && diagnostic["error"]?["column"] == nil)
        let text = try Vet.run(["plist", "-"], stdin: bytes)
        #expect(text.stderr.hasPrefix("<stdin>: byte \(bytes.count - 24): error: "))
    }

    @Test func xxeIsACompilerStyleDiagnostic() throws {
        let input = Array("<!DOCTYPE plist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><plist><string>&x;</string></plist>".utf8)
        let result = try Vet.run(["plist", "-"], stdin: input)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<stdin>:1:17: error: DTD internal subsets are not processed"))
    }

    @Test func limitFlagsApply() throws {
        let result = try Vet.run(["plist", "--diagnostics", "json", "--max-depth", "0", "-"], stdin: PlistWriter.binary(Self.sample))
        #expect(result.status == 1)
        #expect(try JSONParser().parse(result.stdout)["error"]?["code"] == "depthLimitExceeded")
        let quiet = try Vet.run(["plist", "--quiet", "-"], stdin: Array("not a plist".utf8))
        #expect(quiet.status == 1 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test func usageAndUnreadableExitCodes() throws {
        #expect(try Vet.run(["plist", "--format", "yaml", "-"]).status == 64)
        #expect(try Vet.run(["plist", "/nonexistent/file.plist"]).status == 74)
    }
}

/// `vet plist` holds dictionaries to the duplicate-key policy.
@Suite(.serialized) struct VetPlistDuplicateKeyTests {
    static let repeated = PlistWriter.binary(
        .dictionary(PlistDictionary([.init(key: "a", value: .integer(.signed(1))), .init(key: "a", value: .integer(.signed(2)))])))

    @Test func rejectedByDefaultKeptWhenAsked() throws {
        let rejected = try Vet.run(["plist", "-"], stdin: Self.repeated)
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("duplicateKey"))
        let last = try Vet.run(["plist", "--compact", "--duplicate-keys", "last", "-"], stdin: Self.repeated)
        #expect(last.status == 0)
        #expect(try JSONParser().parse(last.stdout) == ["a": 2])
        let first = try Vet.run(["plist", "--compact", "--duplicate-keys", "first", "-"], stdin: Self.repeated)
        #expect(try JSONParser().parse(first.stdout) == ["a": 1])
    }
}

/// What `vet` prints is bounded and escaped, and a failed write is an exit, not a trap.
@Suite(.serialized) struct VetOutputTests {
    /// Forty arrays each holding the next twice: 2^40 values in a few hundred bytes.
    static let exponential: [UInt8] = bplist((0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x09]])

    @Test func anExpandingPlistIsRefusedWhereverItIsPrinted() throws {
        for format in ["json", "xml"] {
            let result = try Vet.run(["plist", "--format", format, "--diagnostics", "json", "-"], stdin: Self.exponential)
            #expect(result.status == 1, "\(format)")
            #expect(try JSONParser().parse(result.stdout)["error"]?["code"] == "amplificationLimitExceeded", "\(format)")
        }
    }

    /// Output is written as it is made; past the input's allowance it stops with a diagnostic.
    @Test func prettyOutputPastTheAllowanceIsRefused() throws {
        // 500 levels of nesting: each line carries its level's indentation (about 250 KB printed from 1 KB).
        let depth = 500
        let document = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let printed = try Vet.run(["json", "-"], stdin: document)
        #expect(printed.status == 0)
        #expect(try JSONParser().parse(printed.stdout) == JSONParser().parse(document))
        let limited = ["--max-amplification", "10", "--amplification-threshold", "0"]
        let refused = try Vet.run(["json", "-"] + limited, stdin: document)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("<stdin>: error: the output would be larger than 10000 bytes"))
        #expect(refused.stderr.hasSuffix("[amplificationLimitExceeded]\n"))
        #expect(refused.stdout.utf8.count <= 10_000)
    }

    /// `vet json file > /dev/full`: a message and exit 74, not a trap.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFailedWriteIsExitSeventyFour() throws {
        let file = try Vet.temporaryFile(Array(#"{"a": [1, 2, 3]}"#.utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        defer { try? FileManager.default.removeItem(atPath: file) }
        for arguments in [["json", file], ["plist", "--format", "xml", "-"], ["plist", "-"]] {
            let result = try Vet.runIntoFullDisk(arguments, stdin: PlistWriter.binary(VetPlistCommandTests.sample))
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr == Vet.fullDiskMessage, "\(arguments)")
        }
    }

    /// The other things `vet` writes to standard output: a digest, JSON diagnostics.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func everyWriteToAFullDiskIsExitSeventyFour() throws {
        let file = try Vet.temporaryFile(Array("[1,]".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        defer { try? FileManager.default.removeItem(atPath: file) }
        for arguments in [["digest", file], ["json", "--diagnostics", "json", file], ["json", "--diagnostics", "json", file + ".missing"]] {
            let result = try Vet.runIntoFullDisk(arguments)
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr == Vet.fullDiskMessage, "\(arguments)")
        }
    }

    /// File names are input too: controls, bidi overrides and newlines are escaped in text diagnostics.
    @Test func fileNamesAreEscapedInText() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vet-names-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "x\u{1B}[2J\u{202E}gpj.json\nfake: error"
        let path = folder.appendingPathComponent(name).path
        try Data("[1,]".utf8).write(to: URL(fileURLWithPath: path))
        let escaped = folder.path + "/x\\u{1B}[2J\\u{202E}gpj.json\\nfake: error"
        let invalid = try Vet.run(["json", path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.hasPrefix(escaped + ":1:3: error: "))
        let missing = try Vet.run(["plist", path + "\u{7}"])
        #expect(missing.status == 74)
        #expect(missing.stderr == "vet: cannot read \(escaped)\\u{7}: no such file, or it cannot be accessed\n")
        let digest = try Vet.run(["digest", path])
        #expect(digest.status == 0)
        #expect(digest.stdout.hasSuffix("  \(escaped)\n"))
        for result in [invalid, missing, digest] {
            #expect(!(result.stdout + result.stderr).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7}" })
        }
    }
}

/// Memory reserved stays proportional to the input: a deep property list whose innermost
/// container is wide, read under an address-space limit (an outside attack found VmPeak
/// 12.4 GB at 80 MB resident: each closed level kept a buffer as large as the value stack).
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh"), "needs /bin/sh for ulimit"))
struct VetPlistAddressSpaceTests {
    /// 500 levels, a million values in the innermost array: 7 MB of XML.
    static let deepAndWide: [UInt8] = {
        let depth = 500
        var text = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
        text += String(repeating: "<array>", count: depth) + String(repeating: "<true/>", count: 1_000_000)
        text += String(repeating: "</array>", count: depth) + "</plist>"
        return Array(text.utf8)
    }()

    /// `vet plist` on `file` in a shell whose address space is capped at 3 GB.
    static func runCapped(_ file: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"ulimit -v 3000000 && exec "$0" plist --quiet --max-values 2000000 --max-depth 1000 "$1""#, Vet.executable.path, file,
        ]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func aDeepWideXMLPlistReadsWithinThreeGigabytesOfAddressSpace() throws {
        let file = try Vet.temporaryFile(Self.deepAndWide)
        defer { try? FileManager.default.removeItem(atPath: file) }
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try Self.runCapped(file) == 0)  // before: killed (status 134) when an allocation failed
    }

    @Test func aDeepWideBinaryPlistReadsWithinThreeGigabytesOfAddressSpace() throws {
        var value = PlistValue.array(Array(repeating: .bool(true), count: 1_000_000))
        for _ in 0..<499 { value = .array([value]) }
        let file = try Vet.temporaryFile(PlistWriter.binary(value))
        defer { try? FileManager.default.removeItem(atPath: file) }
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try Self.runCapped(file) == 0)
    }
}

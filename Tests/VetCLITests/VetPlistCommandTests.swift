import Foundation
import Testing
import Vetted

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

import Foundation
import Testing
import Vetted

@Suite(.serialized) struct VetRawCommandTests {
    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vet-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let sample = Vet.repositoryRoot.appendingPathComponent("Samples/listings.json").path

    @Test func digestPrintsLikeSha256sumAndChecksWithExpect() throws {
        let result = try Vet.run(["digest", Self.sample])
        #expect(result.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let expected = Hex.encode(DigestAlgorithm.sha256.digest(of: bytes))
        #expect(result.stdout == "\(expected)  \(Self.sample)\n")
        #expect(try Vet.run(["digest", "--algorithm", "sha512", "-"], stdin: Array("abc".utf8)).stdout.hasPrefix("ddaf35a1"))
        #expect(try Vet.run(["digest", "--expect", expected, Self.sample]).status == 0)
        let differs = try Vet.run(["digest", "--expect", String(repeating: "0", count: 64), Self.sample])
        #expect(differs.status == 1)
        #expect(try Vet.run(["digest", "--expect", "xyz", Self.sample]).status == 64)
        #expect(try Vet.run(["digest", "/nonexistent/file"]).status == 74)
        #expect(try Vet.run(["digest", "--max-bytes", "10", Self.sample]).status == 1)
    }

    @Test func keygenWritesAPrivateKeyOnlyItsOwnerCanRead() throws {
        let folder = try Self.folder()
        let prefix = folder.appendingPathComponent("server").path
        let result = try Vet.run(["keygen", "--key-id", "server-2026", "--output", prefix])
        #expect(result.status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: prefix + ".key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let key = try SigningKey(fileText: String(contentsOfFile: prefix + ".key", encoding: .utf8))
        let publicKey = try VerificationKey(fileText: String(contentsOfFile: prefix + ".pub", encoding: .utf8))
        #expect(key.keyID.rawValue == "server-2026" && publicKey.keyID == key.keyID)
        #expect(publicKey.rawRepresentation == key.verificationKey.rawRepresentation)
        // Never overwrites a key.
        #expect(try Vet.run(["keygen", "--output", prefix]).status == 64)
        #expect(try Vet.run(["keygen", "--key-id", "has space", "--output", prefix + "2"]).status == 64)
        #expect(try Vet.run(["keygen", "--algorithm", "hmac-sha256", "--output", prefix + "-hmac"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: prefix + "-hmac.pub"))
    }

    @Test func keygenWritesPEMThatEveryKeyOptionReads() throws {
        let folder = try Self.folder()
        let prefix = folder.appendingPathComponent("server").path
        let result = try Vet.run(["keygen", "--format", "pem", "--algorithm", "p256", "--output", prefix])
        #expect(result.status == 0 && result.stdout.contains("server.key.pem, ") && result.stdout.contains("server.pub.pem"))
        let attributes = try FileManager.default.attributesOfItem(atPath: prefix + ".key.pem")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let privateText = try String(contentsOfFile: prefix + ".key.pem", encoding: .utf8)
        #expect(privateText.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try String(contentsOfFile: prefix + ".pub.pem", encoding: .utf8).hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        // vet sign and vet verify take the PEM files.
        let payload = folder.appendingPathComponent("payload.json").path
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: payload))
        #expect(try Vet.run(["sign", "--key", prefix + ".key.pem", payload]).status == 0)
        #expect(try Vet.run(["verify", "--key", prefix + ".pub.pem", payload, payload + ".sig"]).status == 0)
        // PEM has no key id to keep, and HMAC secrets have no PEM form: usage errors.
        #expect(try Vet.run(["keygen", "--format", "pem", "--key-id", "x", "--output", prefix + "2"]).status == 64)
        #expect(try Vet.run(["keygen", "--format", "pem", "--algorithm", "hmac-sha256", "--output", prefix + "3"]).status == 64)
    }

    /// RFC 9421 B.2.4's signed response, as `curl -i` would save it.
    static let rfcResponse =
        "HTTP/1.1 200 OK\r\nDate: Tue, 20 Apr 2021 02:07:56 GMT\r\nContent-Type: application/json\r\n"
        + "Content-Digest: sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:\r\n"
        + "Content-Length: 23\r\n"
        + #"Signature-Input: sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256""#
        + "\r\nSignature: sig-b24=:wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==:\r\n\r\n"
        + #"{"message": "good dog"}"#
    static let rfcKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf
        w0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
        -----END PUBLIC KEY-----

        """

    @Test func verifyHTTPChecksSignatureDigestAndPolicy() throws {
        let folder = try Self.folder()
        let key = folder.appendingPathComponent("p256.pub.pem").path
        try Data(Self.rfcKey.utf8).write(to: URL(fileURLWithPath: key))
        let file = folder.appendingPathComponent("response.http").path
        try Data(Self.rfcResponse.utf8).write(to: URL(fileURLWithPath: file))
        let common = ["verify-http", "--key", key, "--key-id", "test-key-ecc-p256", "--now", "1618884480"]
        let verified = try Vet.run(common + [file])
        #expect(verified.status == 0)
        #expect(
            verified.stdout == """
                \(file): verified: signature sig-b24 by key test-key-ecc-p256 (ecdsa-p256-sha256)
                  covers: @status content-type content-digest content-length
                  created: 1618884473
                  body: 23 bytes, SHA-512 matches Content-Digest

                """)
        let json = try Vet.run(common + ["--format", "json", file])
        #expect(json.stdout.hasPrefix(#"{"valid":true,"label":"sig-b24","keyID":"test-key-ecc-p256","algorithm":"ecdsa-p256-sha256""#))
        // The body changed in transit: exit 1, the defect and where.
        let tampered = try Vet.run(common + ["-"], stdin: Array(Self.rfcResponse.replacingOccurrences(of: "good dog", with: "bad dog!").utf8))
        #expect(tampered.status == 1)
        #expect(tampered.stderr.contains(#"error: the body (23 bytes) does not have the sha-512 digest Content-Digest gives [digestMismatch at $["content-digest"]["sha-512"]]"#))
        // Too old for the default five minutes; a component the signature does not cover; the wrong key id.
        #expect(try Vet.run(["verify-http", "--key", key, "--key-id", "test-key-ecc-p256", file]).stderr.contains("[signatureExpired at"))
        #expect(try Vet.run(common + ["--require", "date", file]).stderr.contains("[uncoveredComponent at"))
        #expect(try Vet.run(["verify-http", "--key", key, "--now", "1618884480", file]).stderr.contains("[unknownKeyID at"))
        // Usage errors: a component name that is not one, --key-id with two keys; unreadable input.
        #expect(try Vet.run(common + ["--require", "@nonsense", file]).status == 64)
        #expect(try Vet.run(["verify-http", "--key", key, "--key", key, "--key-id", "a", file]).status == 64)
        #expect(try Vet.run(common + ["/nonexistent/response.http"]).status == 74)
    }

    /// A request: RFC 9421 B.2.6 (Ed25519 over date, method, path, authority, content type and length).
    @Test func verifyHTTPChecksARequest() throws {
        let folder = try Self.folder()
        let key = folder.appendingPathComponent("ed.pub.pem").path
        try Data("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----\n".utf8)
            .write(to: URL(fileURLWithPath: key))
        let request =
            "POST /foo?param=Value&Pet=dog HTTP/1.1\r\nHost: example.com\r\nDate: Tue, 20 Apr 2021 02:07:55 GMT\r\n"
            + "Content-Type: application/json\r\nContent-Length: 18\r\n"
            + #"Signature-Input: sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519""#
            + "\r\nSignature: sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:\r\n\r\n"
            + #"{"hello": "world"}"#
        let file = folder.appendingPathComponent("request.http").path
        try Data(request.utf8).write(to: URL(fileURLWithPath: file))
        let common = ["verify-http", "--key", key, "--key-id", "test-key-ed25519", "--now", "1618884480"]
        // The body is not covered: verified only when the policy does not ask for content-digest.
        let verified = try Vet.run(common + ["--no-content-digest", file])
        #expect(verified.status == 0 && verified.stdout.contains("covers: date @method @path @authority content-type content-length"))
        #expect(verified.stdout.contains("body: not covered"))
        let strict = try Vet.run(common + [file])
        #expect(strict.status == 1 && strict.stderr.contains("[uncoveredComponent at"))
        // Another host in the request: the covered @authority no longer matches.
        let moved = try Vet.run(common + ["--no-content-digest", "-"], stdin: Array(request.replacingOccurrences(of: "Host: example.com", with: "Host: example.org").utf8))
        #expect(moved.status == 1 && moved.stderr.contains("[signatureMismatch at"))
    }

    @Test func signAndVerifyDetachedAndEnveloped() throws {
        let folder = try Self.folder()
        let prefix = folder.appendingPathComponent("k").path
        for algorithm in ["ed25519", "p256", "hmac-sha256"] {
            let keyPrefix = prefix + algorithm
            #expect(try Vet.run(["keygen", "--algorithm", algorithm, "--output", keyPrefix]).status == 0)
            let trusted = algorithm == "hmac-sha256" ? keyPrefix + ".key" : keyPrefix + ".pub"
            let file = folder.appendingPathComponent("listings-\(algorithm).json").path
            try FileManager.default.copyItem(atPath: Self.sample, toPath: file)

            #expect(try Vet.run(["sign", "--key", keyPrefix + ".key", file]).status == 0)
            let verified = try Vet.run(["verify", "--key", trusted, file, file + ".sig"])
            #expect(verified.status == 0, "\(verified.stderr)")
            #expect(verified.stderr.contains("verified"))
            #expect(try Vet.run(["json", "--quiet", file, "--signature", file + ".sig", "--key", trusted]).status == 0)

            #expect(try Vet.run(["sign", "--key", keyPrefix + ".key", "--envelope", file]).status == 0)
            let extracted = try Vet.run(["verify", "--key", trusted, file + ".envelope", "--extract", "-"])
            #expect(extracted.status == 0)
            #expect(Array(extracted.stdout.utf8) == Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            #expect(try Vet.run(["json", "--quiet", file + ".envelope", "--envelope", "--key", trusted]).status == 0)

            // base64 detached signatures, as sent in a header.
            let base64 = try Vet.run(["sign", "--key", keyPrefix + ".key", "--base64", "--output", file + ".b64", file])
            #expect(base64.status == 0)
            #expect(try Vet.run(["verify", "--key", trusted, file, file + ".b64"]).status == 0)

            // One changed byte: the signature no longer verifies, and nothing is parsed.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            bytes[20] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: file))
            let tampered = try Vet.run(["json", file, "--signature", file + ".sig", "--key", trusted])
            #expect(tampered.status == 1)
            #expect(tampered.stderr.contains("[signatureMismatch]"))
            #expect(try Vet.run(["verify", "--key", trusted, file, file + ".sig"]).status == 1)
        }
    }

    @Test func jsonRunsTheGateFirst() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let digest = Hex.encode(DigestAlgorithm.sha256.digest(of: bytes))
        #expect(try Vet.run(["json", "--quiet", "--sha256", digest, Self.sample]).status == 0)
        #expect(try Vet.run(["json", "--quiet", "--sha256", Data(Hex.decode(digest) ?? []).base64EncodedString(), Self.sample]).status == 0)
        let mismatch = try Vet.run(["json", "--sha256", String(repeating: "ab", count: 32), Self.sample])
        #expect(mismatch.status == 1)
        #expect(mismatch.stderr.contains("[digestMismatch]"))
        let tooLarge = try Vet.run(["json", "--max-bytes", "100", Self.sample])
        #expect(tooLarge.status == 1)
        #expect(tooLarge.stderr.contains("the limit is 100"))
        // Usage errors: a malformed digest, a signature without keys, keys without a signature.
        #expect(try Vet.run(["json", "--sha256", "12", Self.sample]).status == 64)
        #expect(try Vet.run(["json", "--signature", "x.sig", Self.sample]).status == 64)
        #expect(try Vet.run(["json", "--key", "x.pub", Self.sample]).status == 64)
        #expect(try Vet.run(["json", "--envelope", "--key", "/nonexistent.pub", Self.sample]).status == 64)
    }
}

@Suite struct VetArchiveCommandTests {
    static let fixtures = Vet.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/keyed-archives/apple")

    static var fixturesPresent: Bool {
        FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("NSKeyedUnarchiver-ArrayTest.plist").path)
    }

    @Test(.enabled(if: fixturesPresent, "Apple's keyed archives are not at ../shared/fixtures/keyed-archives/apple"))
    func inspectPrintsTheGraphWithoutInstantiatingAnything() throws {
        let archive = Self.fixtures.appendingPathComponent("NSKeyedUnarchiver-ArrayTest.plist").path
        let text = try Vet.run(["archive", "inspect", archive])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("$top\n  root = #1\n#1 NSArray\n  NS.objects = [#2, #2, #3, #4]\n#2 \"baa\"\n"))
        let classes = try Vet.run(["archive", "inspect", "--classes", Self.fixtures.appendingPathComponent("NSKeyedUnarchiver-ComplexTest.plist").path])
        #expect(classes.stdout == "NSArray\nNSDictionary\nNSNull\nNSURL\nNSUUID\n")
        let json = try Vet.run(["archive", "inspect", "--format", "json", archive])
        let value = try JSONParser().parse(json.stdout)
        #expect(value["classes"] == ["NSArray"])
        #expect(value["objects"]?[2]?["value"] == "baa")
    }

    /// An archive whose listing is several chunks long (an NSArray of 5,000 strings).
    static func longArchive(count: Int = 5_000) -> [UInt8] {
        var objects: [PlistValue] = [.string("$null")]
        objects.append(.dictionary(["NS.objects": .array((0..<count).map { .uid(UInt64($0 + 2)) }), "$class": .uid(UInt64(count + 2))]))
        objects += (0..<count).map { .string("listing number \($0) of the archive") }
        objects.append(.dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]))
        return PlistWriter.binary(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(PlistInteger(100_000)),
                "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects),
            ]))
    }

    /// The listing is written in chunks as it is made, in text and JSON alike.
    @Test func inspectWritesALongListingWhole() throws {
        let archive = Self.longArchive()
        let text = try Vet.run(["archive", "inspect", "-"], stdin: archive)
        #expect(text.status == 0)
        #expect(text.stdout.utf8.count > 3 * (64 << 10))
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1 + 1 + 2 + 5_000 + 1 + 1)  // $top, root, #1 and its key, the strings, the class, the last newline
        #expect(lines[4] == #"#2 "listing number 0 of the archive""#)
        #expect(lines[5_003] == #"#5001 "listing number 4999 of the archive""#)
        let json = try Vet.run(["archive", "inspect", "--format", "json", "-"], stdin: archive)
        #expect(json.status == 0)
        let value = try JSONParser().parse(json.stdout)
        #expect(value["objects"]?[5_001]?["value"] == "listing number 4999 of the archive")
        #expect(value["defects"] == [])
        #expect(value["classes"] == ["NSArray"])
    }

    /// `vet archive inspect … > /dev/full`: a message and exit 74, not a trap.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func inspectIntoAFullDiskIsExitSeventyFour() throws {
        let file = try Vet.temporaryFile(Self.longArchive(count: 100))
        defer { try? FileManager.default.removeItem(atPath: file) }
        defer { try? FileManager.default.removeItem(atPath: file) }
        for arguments in [["archive", "inspect", file], ["archive", "inspect", "--format", "json", file], ["archive", "inspect", "--classes", file]] {
            let result = try Vet.runIntoFullDisk(arguments)
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr == Vet.fullDiskMessage, "\(arguments)")
        }
    }

    @Test func damagedArchivesGiveDiagnostics() throws {
        let notArchive = try Vet.run(["archive", "inspect", "-"], stdin: Array("[1]".utf8))
        #expect(notArchive.status == 1)
        #expect(notArchive.stderr.contains("[unknownPlistFormat]"))
        let plistButNotArchive = try Vet.run(
            ["archive", "inspect", "-"],
            stdin: Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><integer>1</integer></dict></plist>".utf8))
        #expect(plistButNotArchive.status == 1)
        #expect(plistButNotArchive.stderr.contains("[notAKeyedArchive]"))
        #expect(try Vet.run(["archive", "inspect", "/nonexistent/archive"]).status == 74)
    }
}

/// `vet archive inspect` on damaged archives: prints what it can, marks each
/// defect where it is, exits 1 with the first as a diagnostic.
@Suite(.serialized) struct VetArchiveDefectTests {
    static func archive(top: PlistValue, objects: [PlistValue]) -> [UInt8] {
        PlistWriter.binary(.dictionary([
            "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"), "$top": top,
            "$objects": .array([.string("$null")] + objects),
        ]))
    }

    static let dateClass: PlistValue = .dictionary(["$classname": .string("NSDate"), "$classes": .array([.string("NSDate")])])

    @Test(arguments: [
        // $top's root outside the object table.
        ("root", archive(top: .dictionary(["root": .uid(9)]), objects: [.dictionary(["$class": .uid(2), "NS.time": .real(1)]), dateClass]), #"$["$top"].root"#),
        // $class pointing at an instance.
        ("instance", archive(top: .dictionary(["root": .uid(1)]), objects: [.dictionary(["$class": .uid(1), "NS.time": .real(1)]), dateClass]), #"$["$objects"][1]["$class"]"#),
        // $class pointing at $null.
        ("null", archive(top: .dictionary(["root": .uid(1)]), objects: [.dictionary(["$class": .uid(0), "NS.time": .real(1)]), dateClass]), #"$["$objects"][1]["$class"]"#),
        // $classname that is not a string.
        ("classname", archive(top: .dictionary(["root": .uid(1)]), objects: [.dictionary(["$class": .uid(2)]), .dictionary(["$classname": .integer(.signed(3)), "$classes": .array([])])]), #"$["$objects"][2]["$classname"]"#),
        // A UID out of range in a $class field.
        ("classUID", archive(top: .dictionary(["root": .uid(1)]), objects: [.dictionary(["$class": .uid(77)])]), #"$["$objects"][1]["$class"]"#),
    ] as [(String, [UInt8], String)])
    func eachDefectIsMarkedAndFails(name: String, bytes: [UInt8], path: String) throws {
        let text = try Vet.run(["archive", "inspect", "-"], stdin: bytes)
        #expect(text.status == 1, "\(name)")
        #expect(text.stdout.contains("! archiveCorrupted"), "\(name): \(text.stdout)")
        #expect(text.stderr.contains("archiveCorrupted at"), "\(name): \(text.stderr)")
        let json = try Vet.run(["archive", "inspect", "--format", "json", "-"], stdin: bytes)
        #expect(json.status == 1)
        // The document, then the diagnostic on its own last line.
        let lines = json.stdout.split(separator: "\n")
        let report = try JSONParser().parse(lines.dropLast().joined(separator: "\n"))
        let defects = report["defects"]?.arrayValue ?? []
        #expect(defects.contains { $0["path"] == .string(path) && $0["code"] == "archiveCorrupted" }, "\(name): \(defects)")
    }

    /// Issue 46 item 10: 5,000 bad UIDs 200 levels deep. Each defect once kept its own
    /// 200-component path while the walk went on (a 300 KB archive of this shape, 500 deep
    /// and 150,000 wide, peaked at 1.9 GB): now a place is a link to its container's, the
    /// first 100 defects are listed in archive order and the rest are counted.
    @Test func deepBadUIDsListAHundredDefectsAndCountTheRest() throws {
        var value: PlistValue = .array(Array(repeating: .uid(999_999), count: 5_000))
        for _ in 0..<200 { value = .array([value]) }
        let bytes = Self.archive(top: .dictionary(["root": .uid(1)]), objects: [value])
        let graph = try ArchiveGraph(parsing: bytes)
        let report = graph.defectReport()
        #expect(report.defects.count == 100)
        #expect(report.omitted == 4_900)
        let first = try #require(report.defects.first)
        #expect(first.code == .archiveCorrupted)
        #expect(first.message == "object 1: UID 999999 is outside the object table (2 objects)")
        #expect(first.path == DocumentPath([.key("$objects"), .index(1)] + Array(repeating: .index(0), count: 201)))
        #expect(report.defects[99].path.components.last == .index(99))

        let text = try Vet.run(["archive", "inspect", "-"], stdin: bytes)
        #expect(text.status == 1)
        #expect(text.stdout.hasSuffix("! … and 4900 more defects (the first 100 are listed)\n"))
        let json = try Vet.run(["archive", "inspect", "--format", "json", "-"], stdin: bytes)
        let lines = json.stdout.split(separator: "\n")
        let document = try JSONParser().parse(lines.dropLast().joined(separator: "\n"))
        #expect(document["defects"]?.arrayValue?.count == 100)
        #expect(document["defectsOmitted"] == 4_900)
    }

    /// An instance whose class cannot be read says so in the JSON as the text does ("(no valid
    /// $class)"): `"class": null` and the reason, never a silently missing member.
    @Test func anInstanceWhoseClassCannotBeReadSaysWhy() throws {
        let bytes = Self.archive(top: .dictionary(["root": .uid(1)]), objects: [.dictionary(["$class": .uid(77)]), .string("x")])
        let json = try Vet.run(["archive", "inspect", "--format", "json", "-"], stdin: bytes)
        #expect(json.status == 1)
        let lines = json.stdout.split(separator: "\n")
        let document = try JSONParser().parse(lines.dropLast().joined(separator: "\n"))
        let object = try #require(document["objects"]?[1])
        #expect(object["class"] == .null)
        #expect(object["classError"] == "object 1: $class is not a UID of an object in the archive")
        // An object that is no instance has no class, and says nothing of one.
        #expect(document["objects"]?[2]?["class"] == nil)
        let text = try Vet.run(["archive", "inspect", "-"], stdin: bytes)
        #expect(text.stdout.contains("#1 (no valid $class)\n"))
    }

    /// An instance names its class and the index of its class dictionary; the chain of
    /// `$classes` is written once, in that dictionary (once per instance, 60,000 instances
    /// of a 40,000-name class were 154 MB of JSON from a 1.5 MB archive).
    @Test func anInstanceRefersToItsClassChainInsteadOfCopyingIt() throws {
        let chain: PlistValue = .dictionary(["$classname": .string("A"), "$classes": .array(Array(repeating: .string("A"), count: 1_000))])
        let instances = Array(repeating: PlistValue.dictionary(["$class": .uid(1)]), count: 1_000)
        let bytes = Self.archive(top: .dictionary(["root": .uid(2)]), objects: [chain] + instances)
        let json = try Vet.run(["archive", "inspect", "--format", "json", "-"], stdin: bytes)
        #expect(json.status == 0)
        let document = try JSONParser().parse(json.stdout)
        #expect(document["objects"]?[2]?["class"] == "A")
        #expect(document["objects"]?[2]?["classObject"] == 1)
        #expect(document["objects"]?[2]?["classes"] == nil)
        #expect(json.stdout.utf8.count < 200_000)
    }
}

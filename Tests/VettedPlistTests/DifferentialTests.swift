import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedJSON
import VettedPlist

/// Python's plistlib is an independent reader and writer of both formats.
enum Python {
    static let executable: String? = {
        for path in ["/usr/bin/python3", "/usr/local/bin/python3"] + ((ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map { "\($0)/python3" })
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return nil
    }()

    static var available: Bool { executable != nil }

    /// Values travel as canonical JSON: {"dict": [[key, value]…]}, {"array": […]},
    /// {"string": s}, {"data": base64}, {"date": seconds since 1970},
    /// {"int": "decimal"}, {"real": "big-endian IEEE-754 hex"}, {"bool": b}, {"uid": n}.
    static let script = #"""
        import base64, datetime, json, plistlib, struct, sys
        EPOCH = datetime.datetime(1970, 1, 1)
        def enc(v):
            if isinstance(v, bool): return {"bool": v}
            if isinstance(v, int): return {"int": str(v)}
            if isinstance(v, float): return {"real": struct.pack(">d", v).hex()}
            if isinstance(v, str): return {"string": v}
            if isinstance(v, bytes): return {"data": base64.b64encode(v).decode()}
            if isinstance(v, datetime.datetime): return {"date": round((v - EPOCH).total_seconds())}
            if isinstance(v, plistlib.UID): return {"uid": v.data}
            if isinstance(v, list): return {"array": [enc(x) for x in v]}
            if isinstance(v, dict): return {"dict": [[k, enc(x)] for k, x in v.items()]}
            raise TypeError(type(v))
        def dec(c):
            (kind, v), = c.items()
            if kind == "bool": return v
            if kind == "int": return int(v)
            if kind == "real": return struct.unpack(">d", bytes.fromhex(v))[0]
            if kind == "string": return v
            if kind == "data": return base64.b64decode(v)
            if kind == "date": return EPOCH + datetime.timedelta(seconds=v)
            if kind == "uid": return plistlib.UID(v)
            if kind == "array": return [dec(x) for x in v]
            if kind == "dict": return {k: dec(x) for k, x in v}
        if sys.argv[1] == "read":
            for path in sys.argv[2:]:
                with open(path, "rb") as f: print(json.dumps(enc(plistlib.load(f))))
        else:
            for line in sys.stdin:
                job = json.loads(line)
                fmt = plistlib.FMT_BINARY if job["format"] == "binary" else plistlib.FMT_XML
                with open(job["path"], "wb") as f: plistlib.dump(dec(job["value"]), f, fmt=fmt, sort_keys=False)
        """#

    static func run(_ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = try readAll(stdout.fileHandleForReading)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: output, as: UTF8.self)
    }

    static func canonical(_ value: PlistValue) -> JSONValue {
        switch value {
        case .bool(let flag): ["bool": .bool(flag)]
        case .integer(let integer): ["int": .string(integer.description)]
        case .real(let real):
            ["real": .string(String(repeating: "0", count: 16 - String(real.bitPattern, radix: 16).count) + String(real.bitPattern, radix: 16))]
        case .string(let string): ["string": .string(string)]
        case .data(let data): ["data": .string(data.base64EncodedString())]
        case .date(let date): ["date": .number(JSONNumber(Int64(date.timeIntervalSince1970.rounded())))]
        case .uid(let uid): ["uid": .number(JSONNumber(uid))]
        case .array(let elements): ["array": .array(elements.map(canonical))]
        case .dictionary(let dictionary): ["dict": .array(dictionary.map { [.string($0.key), canonical($0.value)] })]
        }
    }

    static func value(_ canonical: JSONValue) -> PlistValue? {
        guard let object = canonical.objectValue, object.count == 1, let kind = object.keys.first, let payload = object.values.first else { return nil }
        switch kind {
        case "bool": return payload.boolValue.map(PlistValue.bool)
        case "int":
            guard let text = payload.stringValue else { return nil }
            if let signed = Int64(text) { return .integer(.signed(signed)) }
            return UInt64(text).map { .integer(PlistInteger($0)) }
        case "real": return payload.stringValue.flatMap { UInt64($0, radix: 16) }.map { .real(Double(bitPattern: $0)) }
        case "string": return payload.stringValue.map(PlistValue.string)
        case "data": return payload.stringValue.flatMap { Data(base64Encoded: $0) }.map(PlistValue.data)
        case "date": return (try? payload.numberValue?.int64Value).map { .date(Date(timeIntervalSince1970: Double($0))) }
        case "uid": return (try? payload.numberValue?.uint64Value).map(PlistValue.uid)
        case "array": return payload.arrayValue.map { .array($0.compactMap(value)) }
        case "dict":
            guard let pairs = payload.arrayValue else { return nil }
            var dictionary = PlistDictionary()
            for pair in pairs {
                guard let key = pair[0]?.stringValue, let item = pair[1].flatMap(value) else { return nil }
                dictionary[key] = item
            }
            return .dictionary(dictionary)
        default: return nil
        }
    }
}

@Suite(.enabled(if: Python.available, "python3 not found; skipping the plistlib differential tests"), .serialized)
struct PythonDifferentialTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-plist-\(UUID().uuidString)")

    /// Written by Vetted in both formats, read by plistlib: equal.
    @Test func vettedWritesPythonReads() throws {
        let seed = SeededGenerator.seed(for: "vettedWritesPythonReads")
        var generator = SeededGenerator(seed: seed)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var expected: [PlistValue] = []
        var paths: [String] = []
        for index in 0..<60 {
            let withUIDs = index % 3 == 0
            let value = RandomPlist.value(uids: withUIDs, using: &generator)
            let binary = directory.appendingPathComponent("\(index).bplist")
            try Data(PlistWriter.binary(value)).write(to: binary)
            expected.append(value)
            paths.append(binary.path)
            if !withUIDs {  // plistlib writes no UIDs in XML
                let xml = directory.appendingPathComponent("\(index).plist")
                try Data(try PlistWriter.xml(value)).write(to: xml)
                expected.append(value)
                paths.append(xml.path)
            }
        }
        let lines = try Python.run(["read"] + paths).split(separator: "\n")
        #expect(lines.count == expected.count, "seed \(seed)")
        for (line, value) in zip(lines, expected) {
            let read = Python.value(try JSONParser().parse(String(line)))
            #expect(read == value, "seed \(seed): \(line.prefix(200))")
        }
    }

    /// Written by plistlib in both formats, read by Vetted: equal.
    @Test func pythonWritesVettedReads() throws {
        let seed = SeededGenerator.seed(for: "pythonWritesVettedReads")
        var generator = SeededGenerator(seed: seed)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var jobs: [(path: URL, value: PlistValue)] = []
        var input = ""
        for index in 0..<60 {
            let withUIDs = index % 3 == 0
            let value = RandomPlist.value(uids: withUIDs, using: &generator)
            for format in withUIDs ? ["binary"] : ["binary", "xml"] {
                let path = directory.appendingPathComponent("py-\(index).\(format)")
                jobs.append((path, value))
                let job: JSONValue = ["format": .string(format), "path": .string(path.path), "value": Python.canonical(value)]
                input += job.jsonString() + "\n"
            }
        }
        _ = try Python.run(["write"], input: input)
        for job in jobs {
            let read = try PlistParser().parse(Data(contentsOf: job.path))
            #expect(read == job.value, "seed \(seed): \(job.path.lastPathComponent)")
        }
    }
}

/// Foundation reads what Vetted writes (valid input only: it crashes on mutated data).
@Suite struct FoundationReadBackTests {
    /// Foundation-friendly values: no UIDs, finite reals, and no U+FEFF
    /// (Foundation's XML reader drops one that starts a string; plistlib and
    /// Vetted keep it).
    static func sanitized(_ value: PlistValue) -> PlistValue {
        func text(_ string: String) -> String { string.replacingOccurrences(of: "\u{FEFF}", with: "b") }
        switch value {
        case .uid(let uid): return .integer(PlistInteger(uid))
        case .real(let real) where !real.isFinite: return .real(1.5)
        case .string(let string): return .string(text(string))
        case .array(let elements): return .array(elements.map(sanitized))
        case .dictionary(let dictionary):
            return .dictionary(PlistDictionary(dictionary.map { .init(key: text($0.key), value: sanitized($0.value)) }))
        default: return value
        }
    }

    @Test func foundationDropsALeadingByteOrderMarkInXMLStrings() throws {
        let bytes = try PlistWriter.xml(.string("\u{FEFF}x"))
        #expect(try PlistParser().parse(bytes) == .string("\u{FEFF}x"))
        let foundation = try unsafe PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(foundation as? String == "x")
    }

    @Test func foundationReadsVettedOutput() throws {
        let seed = SeededGenerator.seed(for: "foundationReadsVettedOutput")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<100 {
            let value = Self.sanitized(RandomPlist.value(uids: false, using: &generator))
            for (format, bytes) in [("binary", PlistWriter.binary(value)), ("XML", try PlistWriter.xml(value))] {
                let read: Any
                do {
                    read = try unsafe PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
                } catch {
                    Issue.record("seed \(seed), iteration \(iteration): Foundation could not read Vetted's \(format) output of \(value): \(error)")
                    return
                }
                if !foundationValue(read, matches: value) {
                    Issue.record("seed \(seed), iteration \(iteration): Foundation read a different value")
                    return
                }
            }
        }
    }
}

@Suite struct PlistRoundTripTests {
    @Test func randomValuesRoundTripThroughBothWriters() throws {
        let seed = SeededGenerator.seed(for: "randomValuesRoundTripThroughBothWriters")
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<300 {
            let value = RandomPlist.value(uids: true, using: &generator)
            #expect(try PlistParser().parse(PlistWriter.binary(value)) == value, "seed \(seed), iteration \(iteration)")
            #expect(try PlistParser().parse(PlistWriter.xml(value)) == value, "seed \(seed), iteration \(iteration)")
        }
    }

    @Test func integersAcrossTheFullRange() throws {
        for integer: PlistInteger in [.signed(.min), .signed(-1), .signed(0), .signed(255), .signed(256), .signed(65_536), .signed(.max), .unsigned(.max), PlistInteger(UInt64(Int64.max) + 1)] {
            #expect(try PlistParser().parse(PlistWriter.binary(.integer(integer))) == .integer(integer))
            #expect(try PlistParser().parse(PlistWriter.xml(.integer(integer))) == .integer(integer))
        }
    }

    @Test func largeContainersUseExtendedLengths() throws {
        let value = PlistValue.array((0..<1_000).map { .string("item \($0)") })
        #expect(try PlistParser().parse(PlistWriter.binary(value)) == value)
    }
}

/// The talk's listings written by plistlib (binary and XML) decode with their rules, as Foundation decodes them.
@Suite(.enabled(if: Python.available, "python3 not found; skipping the plistlib decoder tests"), .serialized)
struct PlistlibListingTests {
    static func listing(id: Int, name: String, url: String) -> PlistValue {
        .dictionary([
            "id": .integer(.signed(Int64(id))), "name": .string(name), "description": .string("Works; some scratches."),
            "price": .string("12.50"), "sold": .bool(false), "url": .string(url), "tags": .array([.string("music"), .string("vintage")]),
            "created": .date(Date(timeIntervalSince1970: 1_525_000_000)), "last_updated": .date(Date(timeIntervalSince1970: 1_526_000_000)),
        ])
    }

    @Test func plistlibListingsDecodeWithTheirRules() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-plistlib-listings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good: PlistValue = .array([Self.listing(id: 1, name: "Guitar", url: "https://example.com/1"), Self.listing(id: 2, name: "Lamp", url: "https://example.com/2")])
        let bad: PlistValue = .array([Self.listing(id: 1, name: "Guitar", url: "https://exаmple.com/1")])  // Cyrillic а
        var input = ""
        for (name, value) in [("good", good), ("bad", bad)] {
            for format in ["binary", "xml"] {
                let job: JSONValue = ["format": .string(format), "path": .string(directory.appendingPathComponent("\(name).\(format)").path), "value": Python.canonical(value)]
                input += job.jsonString() + "\n"
            }
        }
        _ = try Python.run(["write"], input: input)
        for format in ["binary", "xml"] {
            let data = try Data(contentsOf: directory.appendingPathComponent("good.\(format)"))
            let ours = try VettedPropertyListDecoder().decode([Listing].self, from: data)
            #expect(ours == (try PropertyListDecoder().decode([Listing].self, from: data)))
            #expect(ours.map(\.name) == ["Guitar", "Lamp"])
            let badData = try Data(contentsOf: directory.appendingPathComponent("bad.\(format)"))
            do {
                _ = try VettedPropertyListDecoder().decode([Listing].self, from: badData)
                Issue.record("expected a violation")
            } catch let error as ValidationErrors {
                #expect(error.errors.map(\.code) == [.confusableHost])
                #expect(error.errors.map(\.path) == [[.index(0), .key("url")]])
            }
        }
    }
}

/// Found by `foundationReadsVettedOutput` (seed 14956809611908162150): a binary plist of
/// exactly 256 objects was written with 1-byte references, which CoreFoundation refuses
/// (it wants the object count itself to fit). Every count around the boundaries reads back.
@Suite struct BinaryReferenceSizeTests {
    @Test(arguments: [255, 256, 257, 65_535, 65_536, 65_537])
    func foundationReadsEveryObjectCount(objects: Int) throws {
        // An array of distinct strings: the array itself plus objects - 1 strings.
        let value = PlistValue.array((0..<(objects - 1)).map { .string("s\($0)") })
        let bytes = PlistWriter.binary(value)
        let trailer = Array(bytes.suffix(32))
        let referenceSize = Int(trailer[7])
        #expect(objects < 1 << (8 * referenceSize), "\(objects) objects, \(referenceSize)-byte references")
        let read = try unsafe PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect((read as? [String])?.count == objects - 1)
        #expect(try PlistParser().parse(bytes) == value)
    }
}

/// Large plist dictionaries are indexed on their first lookup (issue 18, item 2): the
/// index answers as a scan would, through additions, removals and copies.
@Suite struct PlistDictionaryIndexTests {
    @Test func lookupsMatchAScanThroughChangesAndCopies() {
        var dictionary = PlistDictionary()
        for index in 0..<100 {
            dictionary["k\(index)"] = .integer(.signed(Int64(index)))
            #expect(dictionary["k\(index)"] == .integer(.signed(Int64(index))) && dictionary["k\(index / 3)"] == .integer(.signed(Int64(index / 3))))
        }
        var copy = dictionary
        copy["k5"] = .string("five")
        copy["extra"] = .bool(true)
        #expect(dictionary["k5"] == .integer(.signed(5)) && dictionary["extra"] == nil)
        #expect(copy["k5"] == .string("five") && copy["extra"] == .bool(true) && copy["k99"] == .integer(.signed(99)))
        copy["k0"] = nil
        #expect(copy["k0"] == nil && copy["k1"] == .integer(.signed(1)) && copy.count == 100)
        // Repeated keys (a parser may keep them under a policy): the first wins, as a scan's would.
        let repeated = PlistDictionary((0..<40).map { .init(key: "r\($0 % 20)", value: .integer(.signed(Int64($0)))) })
        #expect(repeated["r3"] == .integer(.signed(3)))
    }
}

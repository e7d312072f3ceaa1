import ArgumentParser
import Foundation
import Vetted
import VettedMacros

/// `compare scaling`: each hostile shape built at n, 2n and 4n and timed;
/// the growth factor per doubling says whether the cost is linear (about 2)
/// or worse (4 for quadratic). Lines: name<TAB>n<TAB>seconds at n, 2n, 4n<TAB>factors.
struct ScalingCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaling",
        abstract: "Hostile shapes at n, 2n and 4n: the growth factor per doubling (target ≤ 2.3).",
        discussion: """
            Shapes: JSON objects with many keys (each key strategy and duplicate-key policy), deep
            nesting, long strings full of escapes, long numbers; binary plists with large
            dictionaries and many shared references; keyed archives with many NS.object.N
            elements and large NS.keys dictionaries; URLs with many labels; a pattern on a long
            input. Each size is timed as the median of --runs runs. Exits 1 when a factor is over
            the limit.
            """)

    @Option(help: "Timed runs per size.")
    var runs = 5

    @Option(help: "Scale: every shape's n is multiplied by this.")
    var scale = 1

    @Option(help: "The largest growth factor per doubling that passes.")
    var limit = 2.3

    @Option(help: "Time only the shapes whose name starts with this.")
    var only: String?

    @Flag(
        help: """
            Count instructions instead of timing: each size runs once in its own process under \
            valgrind's callgrind, counting only the shape's work. Deterministic, and blind to caches \
            and the allocator's page faults: the factors are the algorithm's.
            """)
    var instructions = false

    /// Internal: run one shape once at exactly this size (the process callgrind watches).
    @Option(help: .hidden)
    var once: Int?

    /// Sizes: each shape's 4n keeps its working set within this machine's caches (a
    /// few MB), so that the factor measures the algorithm; past them (`--scale 4`),
    /// memory stalls add to every shape, linear or not. Shapes that take well under
    /// a millisecond repeat their work, so that the clock can tell.
    struct Shape {
        let name: String
        let n: Int
        /// Builds the input for a size, then returns the work to time on it.
        let make: (Int) throws -> () throws -> Void
    }

    func run() throws {
        let unlimited = Limits(
            maxInputBytes: .max, maxDepth: 1 << 20, maxStringBytes: .max, maxMembers: .max, maxValues: .max, maxNumberLength: .max)
        struct Row: Decodable { let value: [String: Int] }
        func objectJSON(_ count: Int, repeatEvery: Int? = nil) -> [UInt8] {
            var text = "{\"value\": {"
            for index in 0..<count {
                if index > 0 { text += "," }
                let key = repeatEvery.map { index % $0 } ?? index
                text += "\"key_\(key)_x\": \(index)"
            }
            return Array((text + "}}").utf8)
        }
        func jsonDecoder(_ configure: (VettedJSONDecoder) -> Void) -> VettedJSONDecoder {
            let decoder = VettedJSONDecoder()
            decoder.limits = unlimited
            configure(decoder)
            return decoder
        }
        func decodeShape(_ name: String, _ n: Int, repeatEvery: Int? = nil, _ configure: @escaping (VettedJSONDecoder) -> Void) -> Shape {
            Shape(name: name, n: n) { count in
                let bytes = objectJSON(count, repeatEvery: repeatEvery)
                let decoder = jsonDecoder(configure)
                return { for _ in 0..<10 { _ = try decoder.decode(Row.self, from: bytes) } }
            }
        }
        let archiveLimits = Limits(maxMembers: .max, maxValues: .max)
        func numberedArchive(_ count: Int) -> Data {
            var objects: [PlistValue] = [.string("$null"), .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray")])])]
            var entries: [PlistDictionary.Entry] = [.init(key: "$class", value: .uid(1))]
            for index in 0..<count {
                objects.append(.string("e\(index)"))
                entries.append(.init(key: "NS.object.\(index)", value: .uid(UInt64(objects.count - 1))))
            }
            objects.append(.dictionary(PlistDictionary(entries)))
            return Data(PlistWriter.binary(.dictionary([
                "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"),
                "$top": .dictionary(["root": .uid(UInt64(objects.count - 1))]), "$objects": .array(objects),
            ])))
        }
        // A model of three fields in an object of n unknown members ("name" last, so each
        // decode's lookups pass over them all): the tape path (init(from:)) and @Vetted's.
        func unknownKeysJSON(_ count: Int) -> [UInt8] {
            var text = "{\"id\": 7, \"price\": 12.5"
            for index in 0..<count { text += ", \"key_\(index)_x\": \(index)" }
            return Array((text + ", \"name\": \"lamp\"}").utf8)
        }
        func unknownKeysShape<T: Decodable>(_ name: String, _ type: T.Type, _ n: Int) -> Shape {
            Shape(name: name, n: n) { count in
                let bytes = unknownKeysJSON(count)
                let decoder = jsonDecoder { _ in }
                return { for _ in 0..<10 { _ = try decoder.decode(T.self, from: bytes) } }
            }
        }
        let shapes: [Shape] = [
            unknownKeysShape("json.unknown-keys.codable", ScalingModel.Codable.self, 2_000),
            unknownKeysShape("json.unknown-keys.vetted", ScalingModel.Vetted.self, 2_000),
            Shape(name: "bplist.unknown-keys", n: 4_000) { count in
                var entries: [PlistDictionary.Entry] = [.init(key: "id", value: .integer(.signed(7))), .init(key: "price", value: .real(12.5))]
                entries += (0..<count).map { .init(key: "key_\($0)_x", value: .integer(.signed(Int64($0)))) }
                entries.append(.init(key: "name", value: .string("lamp")))
                let bytes = PlistWriter.binary(.dictionary(PlistDictionary(entries)))
                let decoder = VettedPropertyListDecoder()
                decoder.limits = unlimited
                return { for _ in 0..<10 { _ = try decoder.decode(ScalingModel.Vetted.self, from: bytes) } }
            },
            decodeShape("json.keys.default", 2_000) { _ in },
            decodeShape("json.keys.snake-case", 2_000) { $0.keyDecodingStrategy = .convertFromSnakeCase },
            decodeShape("json.keys.custom", 2_000) { $0.keyDecodingStrategy = .custom { $0.last ?? PathKey(stringValue: "") } },
            decodeShape("json.keys.keep-first", 2_000, repeatEvery: 1_000) { $0.duplicateKeyPolicy = .keepFirst },
            decodeShape("json.keys.keep-last", 2_000, repeatEvery: 1_000) { $0.duplicateKeyPolicy = .keepLast },
            // The parser's depth ceiling is 1,024 levels (Limits.effectiveMaxDepth): 200, 400, 800.
            Shape(name: "json.nesting", n: 200) { count in
                let bytes = Array((String(repeating: "[", count: count) + String(repeating: "]", count: count)).utf8)
                let parser = JSONParser(limits: unlimited)
                // Microseconds a document: 2,000 of them a run, so the clock can tell.
                return { for _ in 0..<2_000 { _ = try parser.parse(bytes) } }
            },
            Shape(name: "json.string-escapes", n: 200_000) { count in
                let bytes = Array(("\"" + String(repeating: "\\u00e9\\n", count: count) + "\"").utf8)
                let parser = JSONParser(limits: unlimited)
                return { _ = try parser.parse(bytes) }
            },
            Shape(name: "json.long-number", n: 200_000) { count in
                let bytes = Array(("[" + String(repeating: "7", count: count) + ".5e3]").utf8)
                let parser = JSONParser(limits: unlimited)
                return { for _ in 0..<100 { _ = try parser.parse(bytes) } }
            },
            Shape(name: "bplist.dictionary", n: 4_000) { count in
                let value = PlistValue.dictionary(PlistDictionary((0..<count).map { .init(key: "k\($0)", value: .integer(.signed(Int64($0)))) }))
                let bytes = PlistWriter.binary(value)
                let parser = PlistParser(limits: unlimited)
                return { for _ in 0..<10 { _ = try parser.parse(bytes) } }
            },
            Shape(name: "bplist.decode-dictionary", n: 4_000) { count in
                let value = PlistValue.dictionary(PlistDictionary((0..<count).map { .init(key: "k\($0)", value: .integer(.signed(Int64($0)))) }))
                let bytes = PlistWriter.binary(value)
                let decoder = VettedPropertyListDecoder()
                decoder.limits = unlimited
                return { _ = try decoder.decode([String: Int].self, from: bytes) }
            },
            Shape(name: "bplist.shared-references", n: 2_000) { count in
                // Each level's array holds the level below twice: values grow as 2^depth, held to maxValues.
                let shared = PlistValue.array((0..<count).map { PlistValue.string("s\($0)") })
                let bytes = PlistWriter.binary(.array(Array(repeating: shared, count: 64)))
                let parser = PlistParser(limits: unlimited)
                return { _ = try parser.parse(bytes) }
            },
            // Amplification, under the default limits (the allowance: 100× the input, at least 8 MiB):
            // each input is refused with amplificationLimitExceeded after work bounded by its size.
            Shape(name: "bplist.amplified-string", n: 4_000) { count in
                // `count` references to one 256 KiB string (plistlib's shape: 1 MB naming 4 GB at 4,000).
                let bytes = PlistWriter.binary(.array(Array(repeating: .string(String(repeating: "a", count: 256 << 10)), count: count)))
                let parser = PlistParser()
                return { for _ in 0..<20 { if (try? parser.parse(bytes)) != nil { throw ValidationError("an amplified string was accepted") } } }
            },
            Shape(name: "bplist.amplified-containers", n: 200) { count in
                // `count` arrays each holding the next twice: 2^count values in a few bytes each.
                let bytes = Self.chain(depth: count)
                let parser = PlistParser(limits: Limits(maxDepth: 1_024))
                return { if (try? parser.parse(bytes)) != nil { throw ValidationError("amplified containers were accepted") } }
            },
            Shape(name: "archive.amplified-string", n: 20_000) { count in
                // An NSArray of `count` UIDs naming one 64 KiB string, decoded: each use counts its bytes.
                var objects: [PlistValue] = [.string("$null"), .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray")])])]
                objects.append(.string(String(repeating: "s", count: 64 << 10)))
                let elements = PlistValue.array(Array(repeating: .uid(2), count: count))
                objects.append(.dictionary(["$class": .uid(1), "NS.objects": elements]))
                let data = Data(PlistWriter.binary(.dictionary([
                    "$version": .integer(.signed(100_000)), "$archiver": .string("NSKeyedArchiver"),
                    "$top": .dictionary(["root": .uid(3)]), "$objects": .array(objects),
                ])))
                return {
                    for _ in 0..<4 where (try? KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: data)) != nil {
                        throw ValidationError("an amplified archive was accepted")
                    }
                }
            },
            Shape(name: "archive.ns-object-n", n: 8_000) { count in
                let data = numberedArchive(count)
                return { for _ in 0..<4 { _ = try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: String.self, from: data, limits: archiveLimits) } }
            },
            Shape(name: "archive.ns-keys", n: 8_000) { count in
                let dictionary = Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", "v\($0)") })
                let data = try KeyedArchiver.archivedData(withRootObject: dictionary, limits: archiveLimits)
                return {
                    for _ in 0..<4 {
                        _ = try KeyedUnarchiver.unarchivedDictionary(ofKeyClass: String.self, objectClass: String.self, from: data, limits: archiveLimits)
                    }
                }
            },
            Shape(name: "url.labels", n: 20_000) { count in
                let url = "https://" + String(repeating: "a.", count: count) + "example.com/"
                let policy = URLPolicy(hosts: [.includingSubdomains("example.com")], maximumLength: .max)
                return { for _ in 0..<100 { _ = policy.violation(for: url) } }
            },
            Shape(name: "pattern.long-input", n: 200_000) { count in
                let pattern = try LinearPattern("(a|b)*c(a|b)*")
                let text = String(repeating: "ab", count: count) + "c" + String(repeating: "ba", count: count)
                return { for _ in 0..<20 { _ = pattern.matches(text) } }
            },
        ]
        if let once {
            guard let only, let shape = shapes.first(where: { $0.name == only }) else { throw ValidationError("--once needs --only SHAPE") }
            let work = try shape.make(once)
            try work()  // warm-up, not counted
            try scalingMeasuredWork(work)
            return
        }
        // Valgrind cannot read this toolchain's DWARF: it watches a copy without debug info (symbols stay).
        let watched = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-scaling-\(ProcessInfo.processInfo.processIdentifier)")
        defer { if instructions { try? FileManager.default.removeItem(at: watched) } }
        if instructions { try Self.tool(
                ["objcopy", "--strip-debug", URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, watched.path],
                what: "objcopy (binutils)") }
        var failed: [String] = []
        for shape in shapes where only.map(shape.name.hasPrefix) ?? true {
            let n = shape.n * scale
            var seconds: [Double] = []
            for size in [n, 2 * n, 4 * n] {
                if instructions {
                    seconds.append(Double(try countInstructions(shape.name, size, watching: watched.path)))
                } else {
                    let work = try shape.make(size)
                    seconds.append(try Timing.medians(runs: runs, warmup: 1, [{ try work(); return nil }])[0])
                }
            }
            let factors = [seconds[1] / seconds[0], seconds[2] / seconds[1]]
            let over = factors.contains { $0 > limit }
            if over { failed.append(shape.name) }
            let times = seconds.map { instructions ? String(format: "%.0f", $0) : String(format: "%.4f", $0) }.joined(separator: " ")
            let growth = factors.map { String(format: "%.2f", $0) }.joined(separator: " ")
            print("\(shape.name)\t\(n)\t\(times)\t\(growth)\(over ? "\tOVER" : "")")
        }
        if !failed.isEmpty {
            print("over \(limit) per doubling: \(failed.joined(separator: ", "))")
            throw ExitCode(1)
        }
    }

    /// A binary plist of `depth` arrays, each holding the next one twice, over `true`: 2^depth values.
    static func chain(depth: Int) -> [UInt8] {
        let referenceSize = depth + 1 > 255 ? 2 : 1
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for level in 0..<depth {
            offsets.append(bytes.count)
            bytes.append(0xA2)
            for _ in 0..<2 {
                let next = level + 1
                if referenceSize == 2 { bytes.append(UInt8(truncatingIfNeeded: next >> 8)) }
                bytes.append(UInt8(truncatingIfNeeded: next))
            }
        }
        offsets.append(bytes.count)
        bytes.append(0x09)
        let table = bytes.count
        let offsetSize = table > 0xFFFF ? 4 : table > 0xFF ? 2 : 1
        for offset in offsets {
            for shift in stride(from: (offsetSize - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: offset >> shift)) }
        }
        func bigEndian(_ value: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
        return bytes + [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)] + bigEndian(offsets.count) + bigEndian(0) + bigEndian(table)
    }

    /// Instructions executed inside ``scalingMeasuredWork`` when `shape` runs once at `size`, in a child process under callgrind.
    private func countInstructions(_ shape: String, _ size: Int, watching binary: String) throws -> Int {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-scaling-\(ProcessInfo.processInfo.processIdentifier).out")
        defer { try? FileManager.default.removeItem(at: output) }
        try Self.tool(
            [
                "valgrind", "--tool=callgrind", "--toggle-collect=*scalingMeasuredWork*", "--callgrind-out-file=\(output.path)",
                binary, "scaling", "--only", shape, "--once", String(size),
            ], what: "valgrind --tool=callgrind for \(shape) at \(size)")
        let text = try String(contentsOf: output, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") }),
            let count = line.split(separator: " ").last.flatMap({ Int($0) })
        else { throw ValidationError("no instruction count in callgrind's output for \(shape) at \(size)") }
        return count
    }

    private static func tool(_ arguments: [String], what: String) throws {
        let status = try ChildProcess.run(arguments.first ?? "", Array(arguments.dropFirst())).status
        guard status == 0 else { throw ValidationError("\(what) failed (exit \(status)): is it installed?") }
    }
}

/// The work callgrind counts (`--toggle-collect`): kept out of line so that its symbol exists.
@inline(never)
func scalingMeasuredWork(_ work: () throws -> Void) rethrows {
    try work()
}

/// The models of the unknown-keys shapes: three fields, by `init(from:)` and by `@Vetted`.
enum ScalingModel {
    struct Codable: Decodable {
        let id: Int
        let price: Double
        let name: String
    }

    @Vetted struct Vetted: Decodable {
        var id: Int
        var price: Double
        var name: String
    }
}


import ArgumentParser
import Foundation
import Vetted

// `Listing` comes from TalkListing.swift, a link to the tests' shared definition
// (declared with @Vetted); `CodableListing` has the same rules written by hand.

struct DecodeThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: """
            Decode + validate [Listing]: vetted.decode-validate (@Vetted, generated decoding), \
            vetted.decode-validate-codable (Validatable + init(from:)), foundation.JSONDecoder+validate, \
            and msgspec.decode-validate (Python, in its own process) when msgspec is installed.
            """)

    @Argument(help: "A listings JSON file (make-listings).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Run one side only, for profiling: vetted, codable or foundation (prints its MB/s).")
    var only: String?

    @Flag(help: "Leave out the msgspec line even when msgspec is installed.")
    var noMsgspec = false

    @Flag(help: """
        Also time the parts of Foundation's side (JSONDecoder alone, validate() alone), Codable's floor \
        (the same [Listing] replayed through a Decoder that parses nothing and looks up no key), and the \
        budget: one byte scan, making the strings and running the rules, each alone, and their sum with the floor. \
        Ratios on these lines are Foundation's whole side over the line's time.
        """)
    var floor = false

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let (vetted, foundation) = DecodeThroughput.decoders()
        let foundationSide: () throws -> Any? = {
            let listings = try foundation.decode([Listing].self, from: data)
            for listing in listings { try listing.validateByHand() }
            return listings
        }
        // Check before timing: both sides accept the corpus and read the same listings.
        let generatedSide: () throws -> Any? = { try vetted.decode([Listing].self, from: data) }
        let codableSide: () throws -> Any? = { try vetted.decode([CodableListing].self, from: data) }
        if let only {
            let side = only == "vetted" ? generatedSide : only == "codable" ? codableSide : foundationSide
            let median = try timing.medians([side])[0]
            print(Timing.line("\(only).decode-validate", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        let count = (try foundationSide() as? [Listing])?.count
        try Self.check(try vetted.decode([Listing].self, from: data).count == count)
        try Self.check(try vetted.decode([CodableListing].self, from: data).count == count)
        var sides = [generatedSide, codableSide, foundationSide]
        let peer = noMsgspec ? nil : try MsgspecPeer(file: file)
        if let peer {
            guard peer.count == count else { throw ValidationError("msgspec read \(peer.count) listings, Foundation \(count ?? -1)") }
            sides.append { ReportedSeconds(seconds: try peer.decodeOnce()) }
        }
        let medians = try timing.medians(sides)
        let foundationSeconds = medians[2]
        print(Timing.line("vetted.decode-validate", bytes: data.count, seconds: medians[0], peerSeconds: foundationSeconds))
        print(Timing.line("vetted.decode-validate-codable", bytes: data.count, seconds: medians[1], peerSeconds: foundationSeconds))
        print(Timing.line("foundation.JSONDecoder+validate", bytes: data.count, seconds: foundationSeconds, peerSeconds: nil))
        if let peer {
            print(Timing.line("msgspec.decode-validate", bytes: data.count, seconds: medians[3], peerSeconds: foundationSeconds))
            print(Timing.line("ratio.vetted/msgspec", bytes: data.count, seconds: medians[0], peerSeconds: medians[3]))
            peer.stop()
        } else if !noMsgspec {
            print("msgspec.decode-validate\tskipped: \(MsgspecPeer.unavailable ?? "python3 with msgspec not found") (pip install msgspec)")
        }
        if floor { try timeParts(data, foundation: foundation, foundationSeconds: foundationSeconds) }
    }

    /// Where Foundation's time goes, and the least any Decoder could take.
    ///
    /// The `budget.*` lines time, alone, work that decoding and validating
    /// `[Listing]` cannot skip: one pass over the bytes (the parser's
    /// validate-only mode, which builds nothing), making the listings'
    /// strings, and running their declared rules. `budget.sum` adds those to
    /// the floor: its ratio bounds what a decoder built from these parts
    /// could reach, before it finds a single key or parses a single date.
    func timeParts(_ data: Data, foundation: JSONDecoder, foundationSeconds: Double) throws {
        let listings = try foundation.decode([Listing].self, from: data)
        let replay = [.count(listings.count)] + listings.flatMap(\.replayValues)
        try Self.check(try ReplayDecoder(replay).decode([Listing].self) == listings)
        let parser = JSONParser(limits: Limits(maxInputBytes: .max))
        let stringBytes = listings.flatMap(\.stringBytes)
        try Self.check(Self.runRules(listings) == 0)
        let medians = try timing.medians([
            { try foundation.decode([Listing].self, from: data) },
            { for listing in listings { try listing.validateByHand() }; return nil },
            { try ReplayDecoder(replay).decode([Listing].self) },
            { try parser.validate(data); return nil },
            { stringBytes.map { String(decoding: $0, as: UTF8.self) } },
            { Self.runRules(listings) },
        ])
        print(Timing.line("foundation.JSONDecoder", bytes: data.count, seconds: medians[0], peerSeconds: foundationSeconds))
        print(Timing.line("foundation.validate", bytes: data.count, seconds: medians[1], peerSeconds: foundationSeconds))
        print(Timing.line("floor.codable-replay", bytes: data.count, seconds: medians[2], peerSeconds: foundationSeconds))
        print(Timing.line("budget.scan", bytes: data.count, seconds: medians[3], peerSeconds: foundationSeconds))
        print(Timing.line("budget.strings", bytes: data.count, seconds: medians[4], peerSeconds: foundationSeconds))
        print(Timing.line("budget.rules", bytes: data.count, seconds: medians[5], peerSeconds: foundationSeconds))
        print(Timing.line("budget.sum", bytes: data.count, seconds: medians[2...5].reduce(0, +), peerSeconds: foundationSeconds))
    }

    /// Runs `Listing`'s declared field rules on decoded listings, each on its
    /// typed value as the decoder does, and the relation as a plain
    /// comparison (less than the decoder pays for it: this is a lower bound).
    /// Returns the number of violations.
    static func runRules(_ listings: [Listing]) -> Int {
        func checks(_ key: Listing.CodingKeys) -> [FieldCheck] { Listing.validation.fields[key.stringValue] ?? [] }
        let id = checks(.id), name = checks(.name), description = checks(.description)
        let price = checks(.price), url = checks(.url), tags = checks(.tags)
        var violations = 0
        func count(_ violation: RuleViolation?) { if violation != nil { violations += 1 } }
        for listing in listings {
            for check in id { count(check.check(listing.id)) }
            for check in name { count(check.check(listing.name)) }
            for check in description { count(check.check(listing.description)) }
            for check in price { count(check.check(listing.price)) }
            for check in url { count(check.check(listing.url)) }
            for check in tags { count(check.check(listing.tags)) }
            if listing.lastUpdated < listing.created { violations += 1 }
        }
        return violations
    }

    /// The two decoders every listings comparison sets up alike: ISO 8601 dates, and no
    /// input cap on Vetted's side (the corpus is trusted and larger than the default).
    static func decoders() -> (VettedJSONDecoder, JSONDecoder) {
        let vetted = VettedJSONDecoder()
        vetted.dateDecodingStrategy = .iso8601
        vetted.limits = Limits(maxInputBytes: .max)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        return (vetted, foundation)
    }

    static func check(_ condition: Bool) throws {
        guard condition else { throw ValidationError("Vetted and Foundation decoded different listings") }
    }
}

/// A Python peer in a worker process (`Benchmarks/SCRIPT`): it answers "ready N" once
/// loaded, then each `decodeOnce()` asks it for one round ("run") and returns the
/// seconds it measured itself. `msgspec_listings.py` decodes listings;
/// `httpsig_verify.py` verifies signed HTTP responses.
final class MsgspecPeer {
    /// Why the last peer could not start (benchmark-only state, read on the one thread that runs `compare`).
    nonisolated(unsafe) static var unavailable: String?
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffer: [UInt8] = []
    let count: Int

    /// `nil` when python3 or msgspec is missing (the reason in ``unavailable``).
    init?(file: String, script name: String = "msgspec_listings.py", arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(name)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, file] + arguments
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch {
            Self.unavailable = "python3 did not start"
            return nil
        }
        var first = ""
        while let line = Self.readLine(output.fileHandleForReading, &buffer) {
            first = line
            break
        }
        guard first.hasPrefix("ready "), let count = Int(first.dropFirst(6)) else {
            Self.unavailable = first.isEmpty ? "the \(name) worker gave no answer" : first
            process.terminate()
            return nil
        }
        self.count = count
    }

    func decodeOnce() throws -> Double {
        input.fileHandleForWriting.write(Data("run\n".utf8))
        guard let line = Self.readLine(output.fileHandleForReading, &buffer), let seconds = Double(line) else {
            throw ValidationError("the msgspec worker stopped")
        }
        return seconds
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private static func readLine(_ handle: FileHandle, _ buffer: inout [UInt8]) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(contentsOf: chunk)
        }
    }
}

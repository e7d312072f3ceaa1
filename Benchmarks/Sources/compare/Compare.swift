import ArgumentParser
import Foundation
import Vetted

#if canImport(Glibc)
import Glibc
#endif

@main
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Measure Vetted against its Foundation peer on the same bytes, in one process.",
        discussion: """
            Each subcommand checks that both sides produce the same result, warms up, then
            times the sides in turn (each timed run right after an untimed run of the same
            side) and prints the median of each, one line per measurement:
              name<TAB>MB/s<TAB>ratio
            where ratio = Vetted throughput / Foundation throughput ("-" on the peer's own line).
            Build in release: swift run -c release --package-path Benchmarks compare …
            """,
        subcommands: [
            JSONThroughput.self, JSONMemory.self, PlistThroughput.self, DecodeThroughput.self, SHA256Throughput.self,
            GateOverhead.self, ArchiveThroughput.self, PlistDecodeThroughput.self, DecodeEventsThroughput.self, ScalingCheck.self, HTTPSignatureThroughput.self, ConfusablesCost.self,
            JSONSchemaThroughput.self, DecodeInvalidThroughput.self, DecodeLinesThroughput.self, RefusalCost.self,
        ])
}

/// `--runs` and `--include-release`, shared by every timed subcommand.
struct TimingOptions: ParsableArguments {
    @Option(help: "Timed runs per side.")
    var runs = 15

    @Flag(help: "Time releasing the values too, not only producing them.")
    var includeRelease = false

    /// Medians of the bodies, with two warm-up rounds (see ``Timing/medians(runs:warmup:includeRelease:_:)``).
    func medians(_ bodies: [() throws -> Any?]) throws -> [Double] {
        try Timing.medians(runs: runs, warmup: 2, includeRelease: includeRelease, bodies)
    }
}

/// What a body returns when the time to count is one it measured itself (a peer in another process).
struct ReportedSeconds {
    let seconds: Double
}

/// Timing helpers shared by the subcommands.
enum Timing {
    /// Median seconds of `runs` timed calls of each body. Bodies take turns,
    /// so that noise over time hits every side alike; each timed call follows
    /// an untimed call of the same body, so that it starts from its own steady
    /// state (allocator and caches) rather than from the other side's debris.
    ///
    /// A body returns what it produced; it is released after the clock stops,
    /// so the time is that of producing the value, not of tearing it down
    /// (`includeRelease` times both).
    static func medians(
        runs: Int, warmup: Int, includeRelease: Bool = false, _ bodies: [() throws -> Any?]
    ) throws -> [Double] {
        for _ in 0..<warmup { for body in bodies { _ = try body() } }
        var samples = Array(repeating: [Double](), count: bodies.count)
        let clock = ContinuousClock()
        for _ in 0..<runs {
            for (index, body) in bodies.enumerated() {
                _ = try body()
                var result: Any?
                let elapsed = try clock.measure {
                    result = try body()
                    if includeRelease { result = nil }
                }
                // A side in another process reports its own time (without the round trip).
                let reported = (result as? ReportedSeconds)?.seconds
                withExtendedLifetime(result) {}
                result = nil
                samples[index].append(reported ?? Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
        return samples.map { $0.sorted()[$0.count / 2] }
    }

    static func line(_ name: String, bytes: Int, seconds: Double, peerSeconds: Double?) -> String {
        let throughput = Double(bytes) / seconds / 1e6
        let ratio = peerSeconds.map { String(format: "%.2f", $0 / seconds) } ?? "-"
        return "\(name)\t\(String(format: "%.1f", throughput))\t\(ratio)"
    }
}

struct JSONThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "JSON → values: vetted.parse, vetted.validate-only, foundation.JSONSerialization.")

    @Argument(help: "A JSON file (for example from make-listings).")
    var file: String

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let parser = JSONParser(limits: Limits(maxInputBytes: Int.max))

        try Self.checkBothSidesAgree(on: data, parser: parser)

        let medians = try timing.medians([
            { try parser.parse(data) },
            { try parser.validate(data); return nil },
            { try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) },
        ])
        print(Timing.line("vetted.parse", bytes: data.count, seconds: medians[0], peerSeconds: medians[2]))
        print(Timing.line("vetted.validate-only", bytes: data.count, seconds: medians[1], peerSeconds: medians[2]))
        print(Timing.line("foundation.JSONSerialization", bytes: data.count, seconds: medians[2], peerSeconds: nil))
    }
}

extension JSONThroughput {
    /// Checked before timing: both sides must read the same document. Runs in
    /// its own scope so that none of its values are alive while timing.
    static func checkBothSidesAgree(on data: Data, parser: JSONParser) throws {
        let ours = try parser.parse(data)
        let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        let canonicalOurs = try JSONSerialization.data(
            withJSONObject: try JSONSerialization.jsonObject(with: Data(ours.jsonBytes()), options: [.fragmentsAllowed]),
            options: [.sortedKeys, .fragmentsAllowed])
        let canonicalTheirs = try JSONSerialization.data(withJSONObject: theirs, options: [.sortedKeys, .fragmentsAllowed])
        guard canonicalOurs == canonicalTheirs else { throw ValidationError("Vetted and Foundation read different values") }
        try parser.validate(data)
    }
}

/// Peak memory of one parse, each side in a fresh child process.
struct JSONMemory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json-memory",
        abstract: "Peak resident memory of parsing FILE once, as a multiple of its size.",
        discussion: "Prints name<TAB>MiB<TAB>×input for vetted.parse and foundation.JSONSerialization.")

    @Argument var file: String
    @Option(help: .hidden) var child: String?

    func run() throws {
        if let child {
            // Peak RSS growth from before reading the file to after parsing it (input included).
            let before = Self.peakResidentBytes()
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            if child == "vetted" {
                let value = try JSONParser(limits: Limits(maxInputBytes: Int.max)).parse(data)
                withExtendedLifetime(value) {}
            } else {
                let value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                withExtendedLifetime(value) {}
            }
            print(Self.peakResidentBytes() - before)
            return
        }
        let size = Double(try Data(contentsOf: URL(fileURLWithPath: file)).count)
        for (name, side) in [("vetted.parse", "vetted"), ("foundation.JSONSerialization", "foundation")] {
            let child = try ChildProcess.run("/proc/self/exe", ["json-memory", file, "--child", side])
            guard child.status == 0, let bytes = Double(child.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw ValidationError("child \(side) failed")
            }
            print("\(name).peak-memory\t\(String(format: "%.1f", bytes / 1_048_576))\t\(String(format: "%.2f", bytes / size))")
        }
    }

    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}

struct PlistThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Binary plist → values: vetted.bplist-read, foundation.PropertyListSerialization.",
        discussion: "FILE must be a valid binary plist (make-listings --format bplist): Foundation crashes on damaged ones.")

    @Argument(help: "A binary property list.")
    var file: String

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let parser = PlistParser(limits: Limits(maxInputBytes: .max, maxMembers: .max, maxValues: .max))
        try Self.checkBothSidesAgree(on: data, parser: parser)
        let medians = try timing.medians([
            { try parser.parse(data) },
            { try unsafe PropertyListSerialization.propertyList(from: data, options: [], format: nil) },
        ])
        print(Timing.line("vetted.bplist-read", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("foundation.PropertyListSerialization", bytes: data.count, seconds: medians[1], peerSeconds: nil))
    }

    static func checkBothSidesAgree(on data: Data, parser: PlistParser) throws {
        let ours = try parser.parse(data)
        let theirs = try unsafe PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard foundationValue(theirs, matches: ours) else { throw ValidationError("Vetted and Foundation read different values") }
    }
}

/// A command run to its end, its standard output kept (standard error discarded):
/// the one way `compare` starts a child (itself, `sha256sum`, `valgrind`).
enum ChildProcess {
    /// Runs `executable` with `arguments`; a bare name is looked up on `PATH`.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, text: String) {
        let process = Process()
        if executable.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

import ArgumentParser
import Foundation
import Vetted
import VettedMacros

// `Listing` comes from TalkListing.swift, a link to the tests' shared definition.

struct JSONSchemaThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jsonschema",
        abstract: """
            Parse + validate a JSON file against a JSON Schema: vetted.jsonschema (VettedJSONSchema, \
            from the bytes), jsonschema-rs.jsonschema and python-jsonschema.jsonschema (Python, in \
            their own processes: json.loads then is_valid) when they are installed.
            """,
        discussion: """
            Without --schema the schema is the exported one of [Listing] (VettedSchema.document, \
            ISO 8601 dates as the corpus writes them). \
            Every side must give the same answer (valid or not) before anything is timed. \
            Ratios are against jsonschema-rs (vetted's and Python's lines) and Python jsonschema \
            (the ratio.vetted/python line). format is an annotation on every side, as the \
            specification's default is.
            """)

    @Argument(help: "A JSON file (make-listings).")
    var file: String

    @Option(help: "A JSON Schema file (default: the exported schema of [Listing]).")
    var schema: String?

    @OptionGroup var timing: TimingOptions

    @Option(help: "Timed runs of Python jsonschema, the slowest side (default: --runs, at most 5).")
    var pythonRuns: Int?

    @Option(help: "Run one side only, for profiling: vetted (prints its MB/s).")
    var only: String?

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let schemaPath = try schema ?? Self.writeListingsSchema()
        defer { if schema == nil { try? FileManager.default.removeItem(atPath: schemaPath) } }
        let compiled = try JSONSchema(
            Data(contentsOf: URL(fileURLWithPath: schemaPath)),
            options: JSONSchema.Options(limits: Limits(maxInputBytes: .max, maxMembers: .max, maxValues: .max)))
        let vettedSide: () throws -> Any? = { compiled.validate(data, mode: .failFast) }
        let report = compiled.validate(data, mode: .failFast)
        guard report.isWellFormed else { throw ValidationError("\(file) does not parse: \(report)") }
        if only != nil {
            let median = try timing.medians([vettedSide])[0]
            print(Timing.line("vetted.jsonschema", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        var peers: [(name: String, peer: MsgspecPeer)] = []
        for (name, engine) in [("jsonschema-rs.jsonschema", "rs"), ("python-jsonschema.jsonschema", "python")] {
            guard let peer = try MsgspecPeer(file: file, script: "jsonschema_peer.py", arguments: [schemaPath, engine]) else {
                print("\(name)\tskipped: \(MsgspecPeer.unavailable ?? "python3 not found") (pip install \(engine == "rs" ? "jsonschema-rs" : "jsonschema"))")
                continue
            }
            guard (peer.count == 1) == report.isValid else {
                throw ValidationError("\(name) says \(peer.count == 1 ? "valid" : "invalid"), Vetted \(report.isValid ? "valid" : "invalid")")
            }
            peers.append((name, peer))
        }
        // Python jsonschema takes about a minute a run on the 20 MB corpus: it is timed on its own, fewer times.
        let fast = peers.filter { $0.name != "python-jsonschema.jsonschema" }
        let medians = try timing.medians([vettedSide] + fast.map { side in { ReportedSeconds(seconds: try side.peer.decodeOnce()) } })
        var seconds = ["vetted.jsonschema": medians[0]]
        for (index, side) in fast.enumerated() { seconds[side.name] = medians[index + 1] }
        if let python = peers.first(where: { $0.name == "python-jsonschema.jsonschema" }) {
            let runs = pythonRuns ?? min(timing.runs, 5)
            seconds[python.name] = try Timing.medians(runs: max(1, runs), warmup: 0, [{ ReportedSeconds(seconds: try python.peer.decodeOnce()) }])[0]
        }
        let reference = seconds["jsonschema-rs.jsonschema"]
        for name in ["vetted.jsonschema", "jsonschema-rs.jsonschema", "python-jsonschema.jsonschema"] {
            guard let own = seconds[name] else { continue }
            print(Timing.line(name, bytes: data.count, seconds: own, peerSeconds: name == "jsonschema-rs.jsonschema" ? nil : reference))
        }
        if let python = seconds["python-jsonschema.jsonschema"] {
            print(Timing.line("ratio.vetted/python", bytes: data.count, seconds: medians[0], peerSeconds: python))
        }
        for side in peers { side.peer.stop() }
    }

    /// The exported schema of `[Listing]` as `compare decode` reads the corpus (ISO 8601 dates),
    /// written to a temporary file the peers read too.
    static func writeListingsSchema() throws -> String {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vetted-listings-schema-\(getpid()).json")
        try Data(VettedSchema.document(for: [Listing].self, decoder: decoder).jsonBytes(.pretty(indent: 2))).write(to: url)
        return url.path
    }
}

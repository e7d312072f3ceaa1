public import ArgumentParser
import Foundation
import Vetted

/// `vet json FILE|-`: validate JSON, print it or say exactly what is wrong.
struct JSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "Validate a JSON document and print it, or report the first defect.",
        discussion: """
            Prints the document (pretty by default) when it is valid. When it is not, prints a \
            compiler-style diagnostic to standard error (file:line:column: error: …, the line, a \
            caret), or with --diagnostics json a machine-readable diagnostic to standard output. \
            Input is never echoed beyond a short, escaped excerpt.

            With --sha256, --signature or --envelope the raw stage runs first: the size, the digest \
            and the signature are checked before a single byte is parsed.

            With --lines (JSON Lines, NDJSON), --seq (RFC 7464 text sequences) or --array (the \
            elements of one top-level array) the input is a stream of records, read in chunks in \
            memory that does not grow with it: each valid record is printed compactly on a line of \
            its own, each failing record gives one located diagnostic (its line in the stream, its \
            path under its index, $[17].price), and a summary ends the run; exit 1 if any record \
            failed. A record longer than --max-record-bytes fails without being read into memory.

            Exit codes: 0 valid, 1 invalid data, 64 usage error, 74 unreadable input.
            """
    )

    /// How a stream's records are framed (`--lines`, `--seq`, `--array`).
    enum Framing: String, EnumerableFlag {
        case lines, seq, array

        static func help(for value: Framing) -> ArgumentHelp? {
            switch value {
            case .lines: "Read a stream of JSON Lines (NDJSON) records, one per line."
            case .seq: "Read a stream of RFC 7464 JSON text sequence records (each after RS, 0x1E)."
            case .array: "Read the elements of one top-level JSON array as a stream of records."
            }
        }

        var framing: VettedJSONDecoder.StreamFraming {
            switch self {
            case .lines: .jsonLines
            case .seq: .jsonTextSequence
            case .array: .array
            }
        }
    }

    @Flag(exclusivity: .exclusive) var framing: Framing?

    @Option(help: "Longest record of a stream (--lines, --seq, --array), in bytes.")
    var maxRecordBytes = Limits.default.maxRecordBytes

    @Argument(help: "The JSON file to check, or - for standard input.")
    var file: String

    @Flag(help: "Print the value without whitespace.")
    var compact = false

    @Flag(help: "Print nothing; report through the exit code only.")
    var quiet = false

    @Option(help: "Output: json, the only one for a JSON document (every subcommand's --format picks its output).")
    var format: JSONOutputFormat = .json

    @Option(help: "Diagnostic format: text (compiler style, on standard error) or json (on standard output).")
    var diagnostics: DiagnosticFormat = .text

    @OptionGroup var limitOptions: LimitOptions

    @OptionGroup(title: "Raw stage: checked before a byte is parsed") var gateOptions: GateOptions

    @Option(help: "What to do with a repeated key: reject, first or last.")
    var duplicateKeys: JSONParser.DuplicateKeyPolicy = .reject

    @Flag(help: "Skip a leading UTF-8 byte order mark instead of rejecting it.")
    var allowBOM = false

    @Flag(help: "Replace invalid UTF-8 in strings with U+FFFD instead of rejecting it.")
    var allowInvalidUTF8 = false

    @Flag(help: "Replace unpaired \\u surrogate escapes with U+FFFD instead of rejecting them.")
    var allowLoneSurrogates = false

    func validate() throws {
        guard framing != nil else { return }
        if maxRecordBytes < 0 { throw ValidationError("--max-record-bytes must not be negative") }
        // A stream is checked record by record as it is read: nothing that needs all of it first.
        if gateOptions.sha256 != nil || gateOptions.signature != nil || gateOptions.envelope {
            throw ValidationError("--sha256, --signature and --envelope check a whole input before it is parsed; they do not apply to a stream of records")
        }
        if allowBOM || allowInvalidUTF8 || allowLoneSurrogates || compact {
            throw ValidationError("--allow-bom, --allow-invalid-utf8, --allow-lone-surrogates and --compact do not apply to a stream of records (each is printed compactly)")
        }
    }

    func run() throws {
        if let framing {
            throw streamRecords(framing.framing)
        }
        let limits = limitOptions.limits
        let diagnostics = Diagnostics(input: file, format: diagnostics, quiet: quiet)
        let policy = try gateOptions.policy(limits: limits)
        let bytes = try InputReader.admit(file, policy: policy, diagnostics: diagnostics).bytes
        let parser = JSONParser(
            limits: limits,
            options: JSONParser.Options(
                duplicateKeys: duplicateKeys, allowByteOrderMark: allowBOM,
                allowInvalidUTF8: allowInvalidUTF8, allowLoneSurrogates: allowLoneSurrogates))
        do {
            if quiet {
                try parser.validate(bytes)
                return
            }
            let value = try parser.parse(bytes)
            var output = Output(limits: limits, inputBytes: bytes.count)
            try JSONWriter(style: compact ? .compact : .pretty).write(value) { chunk in try output.flush(&chunk) }
            var end: [UInt8] = [UInt8(ascii: "\n")]
            try output.flush(&end)
        } catch let failure as Output.WriteFailed {
            throw Output.failed(failure)
        } catch {
            throw diagnostics.report(error)
        }
    }
}

extension JSONCommand {
    /// Reads the input as a stream of records and reports each; gives the exit code.
    func streamRecords(_ framing: VettedJSONDecoder.StreamFraming) -> ExitCode {
        var limits = limitOptions.limits
        limits.maxRecordBytes = maxRecordBytes
        let diagnostics = Diagnostics(input: file, format: diagnostics, quiet: quiet)
        let decoder = VettedJSONDecoder()
        decoder.limits = limits
        decoder.duplicateKeyPolicy = duplicateKeys
        let records: VettedRecordSequence<JSONValue>
        do {
            let url = file == "-" ? URL(fileURLWithPath: "/dev/stdin") : URL(fileURLWithPath: file)
            records = try decoder.elements(of: JSONValue.self, from: url, framing: framing, onError: .skip)
        } catch {
            return diagnostics.unreadable("it cannot be opened for reading")
        }
        var count = 0
        var failed = 0
        for element in records {
            switch element.result {
            case .success(let value):
                count += 1
                guard !quiet, diagnostics.format == .text else { continue }
                do {
                    try Output.write(Array((JSONWriter(style: .compact).string(value) + "\n").utf8))
                } catch {
                    return Output.failed(error)
                }
            case .failure(let error):
                if let unreadable = VettedFailure(error).errors.first(where: { $0.code == .unreadableInput }) {
                    return diagnostics.unreadable(unreadable.message)
                }
                count += 1
                failed += 1
                if let code = diagnostics.report(record: element, error) { return code }
            }
        }
        if !quiet, diagnostics.format == .text {
            diagnostics.note("\(count) record\(count == 1 ? "" : "s"), \(failed) failed")
        }
        return failed == 0 ? .success : VetExit.invalidData
    }
}

extension JSONParser.DuplicateKeyPolicy: ExpressibleByArgument {}

enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `vet json`'s output: the document as JSON (pretty, or `--compact`).
enum JSONOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case json
}

/// The `--max-*` flags, one per limit, defaulting to ``Limits/default``.
struct LimitOptions: ParsableArguments {
    @Option(help: "Largest input in bytes.")
    var maxBytes = Limits.default.maxInputBytes
    @Option(help: "Deepest nesting of containers (at most \(Limits.depthCeiling)).")
    var maxDepth = Limits.default.maxDepth
    @Option(help: "Longest string in bytes.")
    var maxStringBytes = Limits.default.maxStringBytes
    @Option(help: "Most members in one array or object.")
    var maxMembers = Limits.default.maxMembers
    @Option(help: "Most values in the document.")
    var maxValues = Limits.default.maxValues
    @Option(help: "Longest number literal in bytes.")
    var maxNumberLength = Limits.default.maxNumberLength
    @Option(help: "Most that the input may expand into (values read, output written), as a multiple of its size …")
    var maxAmplification = Limits.default.maxAmplification
    @Option(help: "… once past this many bytes.")
    var amplificationThreshold = Limits.default.amplificationThreshold

    func validate() throws {
        for (name, value) in [
            ("--max-bytes", maxBytes), ("--max-depth", maxDepth), ("--max-string-bytes", maxStringBytes),
            ("--max-members", maxMembers), ("--max-values", maxValues), ("--max-number-length", maxNumberLength),
            ("--max-amplification", maxAmplification), ("--amplification-threshold", amplificationThreshold),
        ] where value < 0 {
            throw ValidationError("\(name) must not be negative")
        }
        if maxDepth > Limits.depthCeiling {
            // Never capped silently: the limit asked for is not the one that would hold.
            throw ValidationError("--max-depth \(maxDepth) is above the hard ceiling of \(Limits.depthCeiling) levels; give at most \(Limits.depthCeiling)")
        }
    }

    var limits: Limits {
        Limits(
            maxInputBytes: maxBytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes,
            maxMembers: maxMembers, maxValues: maxValues, maxNumberLength: maxNumberLength,
            maxAmplification: maxAmplification, amplificationThreshold: amplificationThreshold)
    }
}

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

            Exit codes: 0 valid, 1 invalid data, 64 usage error, 74 unreadable input.
            """
    )

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

    func run() throws {
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

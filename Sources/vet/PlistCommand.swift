import ArgumentParser
import Foundation
import Vetted

/// `vet plist FILE|-`: read a binary or XML property list and print it as JSON or XML.
struct PlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Read a binary or XML property list and print it as JSON or as an XML plist.",
        discussion: """
            The format of the input is detected from its first bytes (bplist00 or XML). \
            JSON output maps data to base64 strings, dates to ISO 8601 strings, non-finite \
            reals to strings and UIDs to {"CF$UID": n}. Diagnostics and exit codes are those \
            of `vet json`: 0 valid, 1 invalid data, 64 usage error, 74 unreadable input.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case json, xml
    }

    @Argument(help: "The property list to read, or - for standard input.")
    var file: String

    @Option(help: "Output: json (default) or xml.")
    var format: OutputFormat = .json

    @Flag(help: "JSON output without whitespace.")
    var compact = false

    @Flag(help: "Print nothing; report through the exit code only.")
    var quiet = false

    @Option(help: "Diagnostic format: text (compiler style, on standard error) or json (on standard output).")
    var diagnostics: DiagnosticFormat = .text

    @Option(help: "A dictionary with the same key twice: reject (default), first or last.")
    var duplicateKeys: DuplicateKeyPolicy = .reject

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        let limits = limitOptions.limits
        var reporter = Diagnostics(input: file, format: diagnostics, quiet: quiet)
        let bytes = try InputReader.admit(file, policy: GatePolicy(limits: limits), diagnostics: reporter).bytes
        reporter.binary = bytes.starts(with: Array("bplist".utf8))
        do {
            let value = try PlistParser(limits: limits, duplicateKeys: duplicateKeys).parse(bytes)
            guard !quiet else { return }
            var output = Output(limits: limits, inputBytes: bytes.count)
            switch format {
            case .json:
                try JSONWriter(style: compact ? .compact : .pretty).write(Self.json(value)) { chunk in try output.flush(&chunk) }
                var end: [UInt8] = [UInt8(ascii: "\n")]
                try output.flush(&end)
            case .xml:
                try PlistWriter.writeXML(value) { chunk in try output.flush(&chunk) }
            }
        } catch let failure as Output.WriteFailed {
            throw Output.failed(failure)
        } catch {
            throw reporter.report(error)
        }
    }

    /// A real as a JSON number; one JSON cannot hold as a marked string ("nan", "inf", "-inf").
    static func number(_ real: Double) -> JSONValue {
        JSONNumber(real).map(JSONValue.number) ?? .string(real.isNaN ? "nan" : real < 0 ? "-inf" : "inf")
    }

    /// The JSON form of a property list (iterative: no depth can overflow the stack).
    static func json(_ root: PlistValue) -> JSONValue {
        let json = root.folded(
            entries: { dictionary in dictionary },
            leaf: { value -> JSONValue in
                switch value {
                case .bool(let flag): return .bool(flag)
                case .string(let string): return .string(string)
                case .data(let data): return .string(data.base64EncodedString())
                case .date(let date):
                    // Seconds since 1970 for a date ISO 8601 cannot write (beyond years 1 to 9999);
                    // one that is no finite number (the readers refuse it) named as a real is.
                    if let text = try? PlistWriter.xmlDateText(date) { return .string(text) }
                    return number(date.timeIntervalSince1970)
                case .uid(let uid): return ["CF$UID": .number(JSONNumber(uid))]
                case .integer(.signed(let integer)): return .number(JSONNumber(integer))
                case .integer(.unsigned(let integer)): return .number(JSONNumber(integer))
                case .real(let real): return number(real)
                }
            },
            array: { .array($0) },
            dictionary: { keys, values in
                var object = JSONObject()
                for (key, value) in zip(keys, values) where object[key] == nil { object[key] = value }
                return .object(object)
            })
        return json ?? .null
    }
}

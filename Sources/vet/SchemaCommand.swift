import ArgumentParser
import Foundation
import Vetted

/// `vet schema SCHEMA FILE|-`: validate a JSON document against a JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Validate a JSON document against a JSON Schema (draft 2020-12, or draft 7 when its $schema says so).",
        discussion: """
            Compiles SCHEMA (every $ref resolved, nothing fetched: a reference to another document \
            is an error), then validates FILE. Prints "valid", or each error as a compiler-style \
            diagnostic on standard error (file:line:column: error: …, the keyword and the instance \
            location), or with --diagnostics json one JSON object per error on standard output. \
            A schema that does not compile is reported against SCHEMA.

            Exit codes: 0 valid, 1 invalid data (or a schema that does not compile), 64 usage error, 74 unreadable input.
            """
    )

    @Argument(help: "The JSON Schema file.")
    var schema: String

    @Argument(help: "The JSON file to check, or - for standard input.")
    var file: String

    @Flag(help: "Check format (date-time, email, uuid, …) as an assertion, not only an annotation.")
    var assertFormats = false

    @Option(help: "Most errors listed; the rest are counted.")
    var maxErrors = 100

    @Flag(help: "Print nothing; report through the exit code only.")
    var quiet = false

    @Option(help: "Diagnostic format: text (compiler style, on standard error) or json (on standard output).")
    var diagnostics: DiagnosticFormat = .text

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        guard maxErrors >= 1 else { throw ValidationError("--max-errors must be at least 1") }
    }

    func run() throws {
        let limits = limitOptions.limits
        let schemaDiagnostics = Diagnostics(input: schema, format: diagnostics, quiet: quiet)
        let schemaBytes = try InputReader.admit(schema, policy: GatePolicy(limits: limits), diagnostics: schemaDiagnostics).bytes
        let compiled: JSONSchema
        do {
            compiled = try JSONSchema(Data(schemaBytes), options: JSONSchema.Options(assertFormats: assertFormats, limits: limits))
        } catch {
            throw schemaDiagnostics.report(error)
        }
        let diagnostics = Diagnostics(input: file, format: diagnostics, quiet: quiet)
        let bytes = try InputReader.admit(file, policy: GatePolicy(limits: limits), diagnostics: diagnostics).bytes
        let report = compiled.validate(Data(bytes), mode: .collect(upTo: maxErrors))
        guard !report.isValid else {
            if !quiet {
                do { try Output.write(Array("valid\n".utf8)) } catch { throw Output.failed(error) }
            }
            return
        }
        var exit = VetExit.invalidData
        for error in report.errors { exit = diagnostics.report(error) }
        if report.moreErrors > 0 { exit = diagnostics.report(VettedError(code: "moreErrors", message: "\(report.moreErrors) more errors not listed")) }
        throw exit
    }
}

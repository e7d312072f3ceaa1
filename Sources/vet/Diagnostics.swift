import ArgumentParser
import Foundation
import Vetted

/// Prints errors as compiler-style text on standard error, or as JSON on standard output.
struct Diagnostics {
    /// The input's name, escaped for text (``displayName(of:)``).
    let fileName: String
    /// The input's name as given (`<stdin>` for `-`), for JSON, which escapes it itself.
    let rawFileName: String
    let format: DiagnosticFormat
    let quiet: Bool
    /// Whether the input is binary (a binary property list): a place is a byte offset,
    /// never a line and column, which mean nothing there.
    var binary = false

    /// For the input named on the command line (`-` is standard input).
    init(input file: String, format: DiagnosticFormat, quiet: Bool) {
        self.fileName = Self.displayName(of: file)
        self.rawFileName = file == "-" ? "<stdin>" : file
        self.format = format
        self.quiet = quiet
    }

    /// How messages name an input: `<stdin>` for `-`.
    /// Escaped as excerpts are: a file name is input too, and may hold terminal controls.
    static func displayName(of file: String) -> String { file == "-" ? "<stdin>" : Excerpt.escape(file, maximumBytes: 1_024, quotes: false) }

    /// Reports `error` and gives the exit code: 1 (invalid data), or 74 when the
    /// report itself could not be written (JSON diagnostics go to standard output).
    func report(_ error: any Error) -> ExitCode {
        guard !quiet else { return VetExit.invalidData }
        guard let error = error as? VettedError else {
            writeError("\(fileName): error: \(error)\n")
            return VetExit.invalidData
        }
        switch format {
        case .text: writeError(text(for: error))
        case .json: if let failed = writeOutput(JSONWriter(style: .compact).string(json(for: error)) + "\n") { return failed }
        }
        return VetExit.invalidData
    }

    /// Reports an input failure and gives its exit code: 74 when the input could not be
    /// read (or the report not written), 1 otherwise.
    func fail(_ error: VettedError) -> ExitCode {
        if error.code == .unreadableInput { return unreadable(error.message) }
        return report(error)
    }

    /// Reports an input that cannot be read; exit 74.
    func unreadable(_ why: String) -> ExitCode {
        guard !quiet else { return VetExit.unreadable }
        switch format {
        case .text:
            writeError("vet: cannot read \(fileName): \(why)\n")
        case .json:
            let value: JSONValue = [
                "valid": false, "error": ["code": .string(VettedError.Code.unreadableInput.rawValue), "message": .string(why)],
            ]
            if let failed = writeOutput(value.jsonString() + "\n") { return failed }
        }
        return VetExit.unreadable
    }

    /// Reports a stream's failing record: its error placed in the stream (the record's line
    /// plus the error's line within it; the offset in the stream), on standard error as text or
    /// on standard output as JSON with the record's `index`. Gives an exit code only when the
    /// report could not be written.
    func report<T>(record element: VettedElement<T>, _ error: any Error) -> ExitCode? {
        guard !quiet else { return nil }
        for violation in VettedFailure(error).errors {
            let line = element.line + ((violation.location?.line ?? 1) - 1)
            let offset = violation.offset.map { element.offset + $0 }
            switch format {
            case .text:
                let detail = violation.path.isEmpty ? violation.code.rawValue : "\(violation.code.rawValue) at \(violation.path)"
                let lines = ["\(fileName):\(line): error: \(violation.message) [\(detail)]" + (offset.map { " (byte \($0))" } ?? "")]
                writeError((lines + excerptLines(for: violation)).joined(separator: "\n") + "\n")
            case .json:
                var object: JSONObject = [
                    "code": .string(violation.code.rawValue), "message": .string(violation.message), "path": .string(violation.path.description),
                    "line": .number(JSONNumber(line)),
                ]
                if let offset { object["offset"] = .number(JSONNumber(offset)) }
                if let excerpt = violation.excerpt { object["excerpt"] = .string(excerpt.text) }
                let value: JSONValue = ["valid": false, "file": .string(rawFileName), "record": .number(JSONNumber(element.index)), "error": .object(object)]
                if let failed = writeOutput(JSONWriter(style: .compact).string(value) + "\n") { return failed }
            }
        }
        return nil
    }

    /// The error's excerpt and a caret under its place, indented; none without an excerpt.
    private func excerptLines(for error: VettedError) -> [String] {
        guard let excerpt = error.excerpt, !excerpt.text.isEmpty || error.offset != nil else { return [] }
        return ["    " + excerpt.text, "    " + String(repeating: " ", count: excerpt.caret) + "^"]
    }

    /// A line of its own on standard error (a stream's summary).
    func note(_ text: String) { writeError("\(fileName): \(text)\n") }

    func text(for error: VettedError) -> String {
        var place = fileName
        if binary, let offset = error.offset {
            place += ": byte \(offset)"
        } else if let location = error.location {
            place += ":\(location.line):\(location.column)"
        }
        let detail = error.path.isEmpty ? error.code.rawValue : "\(error.code.rawValue) at \(error.path)"
        var lines = ["\(place): error: \(error.message) [\(detail)]"] + excerptLines(for: error)
        if binary, let related = error.relatedOffset {
            lines.append("\(fileName): byte \(related): note: first seen here")
        } else if let related = error.relatedOffset, let source = error.source {
            let location = source.location(of: related)
            lines.append("\(fileName):\(location.line):\(location.column): note: first seen here")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func json(for error: VettedError) -> JSONValue {
        var object: JSONObject = [
            "code": .string(error.code.rawValue),
            "message": .string(error.message),
            "path": .string(error.path.description),
        ]
        if let offset = error.offset { object["offset"] = .number(JSONNumber(offset)) }
        if !binary, let location = error.location {
            object["line"] = .number(JSONNumber(location.line))
            object["column"] = .number(JSONNumber(location.column))
        }
        if let related = error.relatedOffset { object["relatedOffset"] = .number(JSONNumber(related)) }
        if let excerpt = error.excerpt { object["excerpt"] = .string(excerpt.text) }
        return ["valid": false, "file": .string(rawFileName), "error": .object(object)]
    }

    // Best effort: a diagnostic that cannot be written has nowhere else to go (the exit code still says it).
    private func writeError(_ text: String) { try? FileHandle.standardError.write(contentsOf: Array(text.utf8)) }
    /// Writes to standard output; a failed write is reported on standard error and gives exit 74.
    private func writeOutput(_ text: String) -> ExitCode? {
        do {
            try Output.write(Array(text.utf8))
            return nil
        } catch {
            return Output.failed(error)
        }
    }
}

import ArgumentParser
import Foundation
import Vetted

/// `vet archive inspect FILE`: a keyed archive's object graph, with nothing instantiated.
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Look inside NSKeyedArchiver archives without running any of their classes.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an archive's objects: class names, keys and values. Nothing is instantiated.",
            discussion: """
                Each object is printed as #INDEX CLASS with its keys; references to other objects \
                are #INDEX. Strings are escaped and capped. --classes lists only the class names; \
                --format json prints the same as JSON. A damaged archive is printed as far as it \
                can be, each defect marked where it is ("! defect" lines; "defects" in JSON; the \
                first 100, then how many more), and the first is reported as a diagnostic. Exit codes: 0 read and sound, 1 not a \
                valid archive or a damaged one, 64 usage error, 74 unreadable input.
                """)

        @Argument(help: "The archive (binary or XML plist), or - for standard input.")
        var file: String

        @Flag(help: "List every class name in the archive, and nothing else.")
        var classes = false

        @Option(help: "Output: text (default) or json.")
        var format: DiagnosticFormat = .text

        @OptionGroup var limitOptions: LimitOptions

        func run() throws {
            let limits = limitOptions.limits
            let diagnostics = Diagnostics(input: file, format: format, quiet: false)
            let bytes = try InputReader.admit(file, policy: GatePolicy(limits: limits), diagnostics: diagnostics).bytes
            let graph: ArchiveGraph
            do {
                graph = try ArchiveGraph(parsing: bytes, limits: limits)
            } catch {
                throw diagnostics.fail(error)
            }
            let (defects, omitted) = graph.defectReport()
            // Written as it is produced (chunks straight to the descriptor, as diagnostics
            // are, so that the two never change places), within the input's allowance.
            var output = ChunkedOutput(limits: limits, inputBytes: bytes.count)
            do {
                switch (classes, format) {
                case (true, .text):
                    for name in graph.classNames() { try output.append(name + "\n") }
                case (true, .json):
                    try output.append(json: .array(graph.classNames().map(JSONValue.string)), level: 0)
                    try output.append("\n")
                case (false, .text): try Self.text(graph, defects: defects, omitted: omitted, to: &output)
                case (false, .json): try Self.json(graph, defects: defects, omitted: omitted, to: &output)
                }
                try output.finish()
            } catch let failure as Output.WriteFailed {
                throw Output.failed(failure)
            } catch let error as VettedError {
                throw diagnostics.fail(error)
            }
            if let first = defects.first { throw diagnostics.fail(first) }
        }

        /// `! code: message` lines for the defects, grouped once by where they are: under
        /// `$top` (key `nil`) or under `$objects[i]` (key `i`); anything else under `-1`.
        /// One pass over the defects, so the listing is linear in objects and defects.
        static func marks(_ defects: [VettedError]) -> [Int?: [String]] {
            var marks: [Int?: [String]] = [:]
            for defect in defects {
                let components = defect.path.components
                let place: Int? =
                    switch (components.first, components.dropFirst().first) {
                    case (.key("$top")?, _): nil
                    case (.key("$objects")?, .index(let index)?): index
                    default: -1
                    }
                marks[place, default: []].append("  ! \(defect.code): \(defect.message)")
            }
            return marks
        }

        static func text(_ graph: ArchiveGraph, defects: [VettedError] = [], omitted: Int = 0, to output: inout ChunkedOutput) throws {
            let marks = marks(defects)
            let infos = graph.allClassInfo()
            func line(_ text: String) throws { try output.append(text + "\n") }
            try line("$top")
            for entry in graph.top { try line("  \(Excerpt.escape(entry.key, maximumBytes: 80)) = \(brief(entry.value))") }
            for mark in marks[nil as Int?] ?? [] { try line(mark) }
            for (index, object) in graph.objects.enumerated().dropFirst() {
                if case .dictionary(let dictionary) = object {
                    if let name = dictionary["$classname"]?.stringValue {
                        let chain = dictionary["$classes"].map(brief) ?? "[]"
                        try line("#\(index) class \(Excerpt.escape(name, maximumBytes: 80)) \(chain)")
                    } else {
                        let className = (try? infos[index].get())??.name ?? "(no valid $class)"
                        try line("#\(index) \(Excerpt.escape(className, maximumBytes: 80))")
                        for entry in dictionary where entry.key != "$class" {
                            try line("  \(Excerpt.escape(entry.key, maximumBytes: 80)) = \(brief(entry.value))")
                        }
                    }
                } else {
                    try line("#\(index) \(brief(object))")
                }
                for mark in marks[index] ?? [] { try line(mark) }
            }
            for mark in marks[-1] ?? [] { try line(mark) }
            if omitted > 0 { try line("! … and \(omitted) more defects (the first \(defects.count) are listed)") }
        }

        /// One value on one line: references as #N, strings escaped and capped, containers shortened.
        static func brief(_ value: PlistValue) -> String {
            switch value {
            case .uid(let uid): return "#\(uid)"
            case .string(let string): return "\"" + Excerpt.escape(string, maximumBytes: 120) + "\""
            case .integer(let integer): return integer.description
            case .real(let real): return "\(real)"
            case .bool(let flag): return flag ? "true" : "false"
            case .data(let data): return "<\(data.count) bytes>"
            case .date(let date): return (try? PlistWriter.xmlDateText(date)) ?? "\(date.timeIntervalSince1970)"
            case .array(let elements):
                let shown = elements.prefix(16).map { element -> String in
                    if case .array = element { return "[…]" }
                    if case .dictionary = element { return "{…}" }
                    return brief(element)
                }
                return "[" + shown.joined(separator: ", ") + (elements.count > 16 ? ", … \(elements.count - 16) more" : "") + "]"
            case .dictionary(let dictionary): return "{\(dictionary.count) keys}"
            }
        }

        /// The graph as one pretty JSON object (`top`, `classes`, `objects`, `defects`),
        /// written one object at a time: never the whole document as one value.
        static func json(_ graph: ArchiveGraph, defects: [VettedError] = [], omitted: Int = 0, to output: inout ChunkedOutput) throws {
            func member(_ key: String, first: Bool = false) throws { try output.append((first ? "{" : ",") + "\n  \"\(key)\": ") }
            try member("top", first: true)
            try output.append(json: PlistCommand.json(.dictionary(graph.top)), level: 1)
            try member("classes")
            try output.append(json: .array(graph.classNames().map(JSONValue.string)), level: 1)
            try member("objects")
            let infos = graph.allClassInfo()
            for (index, object) in graph.objects.enumerated() {
                var entry: JSONObject = ["index": .number(JSONNumber(index))]
                // The class by name and by the index of its class dictionary, whose own
                // value holds `$classes`: a chain is written once, not once per instance
                // (60,000 instances of one 40,000-name class were 154 MB of output).
                // An instance whose class cannot be read says so: `"class": null` and the reason.
                switch infos.indices.contains(index) ? infos[index] : .success(nil) {
                case .success(nil):
                    break
                case .success(let info?):
                    entry["class"] = .string(info.name)
                    // The UID its class was read through: `allClassInfo` read it without error.
                    if let uid = try? graph.classUID(ofObject: index) { entry["classObject"] = .number(JSONNumber(uid)) }
                case .failure(let error):
                    entry["class"] = .null
                    entry["classError"] = .string(error.message)
                }
                entry["value"] = PlistCommand.json(object)
                try output.append((index == 0 ? "[" : ",") + "\n    ")
                try output.append(json: .object(entry), level: 2)
            }
            try output.append(graph.objects.isEmpty ? "[]" : "\n  ]")
            try member("defects")
            try output.append(
                json: .array(
                    defects.map { ["code": .string($0.code.rawValue), "path": .string($0.path.description), "message": .string($0.message)] }),
                level: 1)
            try member("defectsOmitted")
            try output.append("\(omitted)")
            try output.append("\n}\n")
        }
    }
}

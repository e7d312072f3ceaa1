import ArgumentParser
import Foundation
import ListingsCorpus
import Vetted

@main
struct MakeListings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-listings",
        abstract: "Write a deterministic listings corpus (the talk's JSON shape) to standard output.")

    @Option(help: "Size of the corpus in bytes (at least).")
    var bytes = 20_000_000

    @Option(help: "Seed: the same seed gives the same bytes.")
    var seed: UInt64 = 1

    enum Format: String, ExpressibleByArgument {
        case json, bplist
    }

    @Option(help: "json (default), or bplist: the same listings as a binary property list (dates as plist dates).")
    var format: Format = .json

    @Flag(help: "Listing events instead of listings: a tagged union of five payload types (\"type\" first, tags in turn).")
    var events = false

    @Flag(help: "JSON Lines: each listing (or event) compactly on a line of its own, instead of one array.")
    var lines = false

    func run() throws {
        let json = events ? EventsCorpus.generate(bytes: bytes, seed: seed) : ListingsCorpus.generate(bytes: bytes, seed: seed)
        if lines {
            guard format == .json else { throw ValidationError("--lines writes JSON Lines; it does not go with --format \(format.rawValue)") }
            guard case .array(let elements) = try JSONParser(limits: Limits(maxInputBytes: .max)).parse(json) else {
                throw ValidationError("the corpus is not an array")
            }
            var output = Data()
            for element in elements {
                output.append(Data(JSONWriter(style: .compact).string(element).utf8))
                output.append(UInt8(ascii: "\n"))
            }
            FileHandle.standardOutput.write(output)
            return
        }
        switch format {
        case .json:
            FileHandle.standardOutput.write(Data(json))
        case .bplist:
            let value = try JSONParser(limits: Limits(maxInputBytes: .max)).parse(json)
            FileHandle.standardOutput.write(Data(PlistWriter.binary(Self.plist(value))))
        }
    }

    /// JSON → property list: integers stay integers, other numbers become reals,
    /// the listings' `created` and `last_updated` become plist dates.
    static func plist(_ value: JSONValue, key: String? = nil) -> PlistValue {
        if key == "created" || key == "last_updated", case .string(let text) = value, let date = try? Date(text, strategy: .iso8601) {
            return .date(date)
        }
        switch value {
        case .null: return .string("")
        case .bool(let flag): return .bool(flag)
        case .string(let string): return .string(string)
        case .number(let number):
            if let integer = try? number.int64Value, !number.literal.contains(".") { return .integer(PlistInteger(integer)) }
            return .real((try? number.doubleValue) ?? 0)
        case .array(let elements): return .array(elements.map { plist($0) })
        case .object(let object):
            return .dictionary(PlistDictionary(object.map { PlistDictionary.Entry(key: $0.key, value: plist($0.value, key: $0.key)) }))
        }
    }
}

import ArgumentParser
import Foundation
import Vetted

// `Listing` comes from TalkListing.swift, a link to the tests' shared definition.

struct DecodeThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode + validate [Listing]: vetted.decode-validate, foundation.JSONDecoder+validate.")

    @Argument(help: "A listings JSON file (make-listings).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Run one side only, for profiling: vetted or foundation (prints its MB/s).")
    var only: String?

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let vetted = VettedJSONDecoder()
        vetted.dateDecodingStrategy = .iso8601
        vetted.limits = Limits(maxInputBytes: .max)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let foundationSide: () throws -> Any? = {
            let listings = try foundation.decode([Listing].self, from: data)
            for listing in listings { try listing.validate() }
            return listings
        }
        // Check before timing: both sides accept the corpus and read the same listings.
        if let only {
            let side: () throws -> Any? = only == "vetted" ? { try vetted.decode([Listing].self, from: data) } : foundationSide
            let median = try timing.medians([side])[0]
            print(Timing.line("\(only).decode-validate", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        try Self.check(vetted.decode([Listing].self, from: data).count == (foundationSide() as? [Listing])?.count)
        let medians = try timing.medians([
            { try vetted.decode([Listing].self, from: data) },
            foundationSide,
        ])
        print(Timing.line("vetted.decode-validate", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("foundation.JSONDecoder+validate", bytes: data.count, seconds: medians[1], peerSeconds: nil))
    }

    static func check(_ condition: Bool) throws {
        guard condition else { throw ValidationError("Vetted and Foundation decoded different listings") }
    }
}

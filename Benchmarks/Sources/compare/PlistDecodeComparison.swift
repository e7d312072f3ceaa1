import ArgumentParser
import Foundation
import Vetted

// `Listing` comes from TalkListing.swift, a link to the tests' shared definition.

struct PlistDecodeThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist-decode",
        abstract: "Decode + validate [Listing] from a binary plist: vetted.plist-decode-validate, foundation.PropertyListDecoder+validate.")

    @Argument(help: "A listings binary plist (make-listings --format bplist).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Run one side only, for profiling: vetted or foundation (prints its MB/s).")
    var only: String?

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let vetted = VettedPropertyListDecoder()
        vetted.limits = Limits(maxInputBytes: .max)
        let foundation = PropertyListDecoder()
        let foundationSide: () throws -> Any? = {
            let listings = try foundation.decode([Listing].self, from: data)
            for listing in listings { try listing.validateByHand() }
            return listings
        }
        if let only {
            let side: () throws -> Any? = only == "vetted" ? { try vetted.decode([Listing].self, from: data) } : foundationSide
            let median = try timing.medians([side])[0]
            print(Timing.line("\(only).plist-decode-validate", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        // Check before timing: both sides accept the corpus and read the same listings.
        guard try vetted.decode([Listing].self, from: data) == (foundationSide() as? [Listing]) else {
            throw ValidationError("Vetted and Foundation decoded different listings")
        }
        let medians = try timing.medians([{ try vetted.decode([Listing].self, from: data) }, foundationSide])
        print(Timing.line("vetted.plist-decode-validate", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("foundation.PropertyListDecoder+validate", bytes: data.count, seconds: medians[1], peerSeconds: nil))
    }
}

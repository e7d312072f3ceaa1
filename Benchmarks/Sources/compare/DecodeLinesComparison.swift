import ArgumentParser
import Foundation
import Vetted

// `Listing` comes from TalkListing.swift (declared with @Vetted).

struct DecodeLinesThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-lines",
        abstract: """
            Decode + validate a JSON Lines stream of Listing: vetted.decode-lines (elements(of:from:framing: .jsonLines), \
            each record decoded and validated alone, as the stream is read in 64 KiB chunks), \
            vetted.decode-array (the same records as one [Listing] document, for the cost of streaming), \
            foundation.decode-lines (a JSONDecoder per line and the same checks by hand, as swift-openapi-runtime's \
            asDecodedJSONLines does), and msgspec.decode-lines (Decoder.decode_lines on the whole buffer, in its own \
            process) when msgspec is installed.
            """)

    @Argument(help: "A JSON Lines listings file (make-listings --lines).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Run one side only, for profiling or its peak RSS: vetted, array or foundation (prints its MB/s).")
    var only: String?

    @Flag(help: "Leave out the msgspec line even when msgspec is installed.")
    var noMsgspec = false

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let (vetted, foundation) = DecodeThroughput.decoders()
        let vettedSide: () throws -> Any? = {
            var listings: [Listing] = []
            for element in vetted.elements(of: Listing.self, from: data, framing: .jsonLines) { listings.append(try element.get()) }
            return listings
        }
        // The same records as one array, built once outside the clock.
        var array = Data("[".utf8)
        array.append(Data(data.split(separator: UInt8(ascii: "\n")).joined(separator: Data(",".utf8))))
        array.append(Data("]".utf8))
        let arraySide: () throws -> Any? = { try vetted.decode([Listing].self, from: array) }
        let foundationSide: () throws -> Any? = {
            var listings: [Listing] = []
            for line in data.split(separator: UInt8(ascii: "\n")) {
                let listing = try foundation.decode(Listing.self, from: line)
                try listing.validateByHand()
                listings.append(listing)
            }
            return listings
        }
        if let only {
            let side = only == "vetted" ? vettedSide : only == "array" ? arraySide : foundationSide
            let median = try timing.medians([side])[0]
            print(Timing.line("\(only).decode-lines", bytes: data.count, seconds: median, peerSeconds: nil))
            return
        }
        // Check before timing: every side reads the same listings.
        let streamed = try vettedSide() as? [Listing]
        let count = streamed?.count
        try DecodeThroughput.check(try foundationSide() as? [Listing] == streamed)
        try DecodeThroughput.check(try vetted.decode([Listing].self, from: array) == streamed)
        var sides = [vettedSide, arraySide, foundationSide]
        let peer = noMsgspec ? nil : try MsgspecPeer(file: file, script: "msgspec_lines.py")
        if let peer {
            guard peer.count == count else { throw ValidationError("msgspec read \(peer.count) listings, Vetted \(count ?? -1)") }
            sides.append { ReportedSeconds(seconds: try peer.decodeOnce()) }
        }
        let medians = try timing.medians(sides)
        print(Timing.line("vetted.decode-lines", bytes: data.count, seconds: medians[0], peerSeconds: medians[2]))
        print(Timing.line("vetted.decode-array", bytes: data.count, seconds: medians[1], peerSeconds: medians[2]))
        print(Timing.line("foundation.decode-lines", bytes: data.count, seconds: medians[2], peerSeconds: nil))
        print(Timing.line("ratio.lines/array", bytes: data.count, seconds: medians[0], peerSeconds: medians[1]))
        if let peer {
            print(Timing.line("msgspec.decode-lines", bytes: data.count, seconds: medians[3], peerSeconds: medians[2]))
            print(Timing.line("ratio.vetted/msgspec", bytes: data.count, seconds: medians[0], peerSeconds: medians[3]))
            peer.stop()
        } else if !noMsgspec {
            print("msgspec.decode-lines\tskipped: \(MsgspecPeer.unavailable ?? "python3 with msgspec not found") (pip install msgspec)")
        }
    }
}

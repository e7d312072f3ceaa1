import ArgumentParser
import Foundation
import ListingsCorpus

@main
struct MakeListings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-listings",
        abstract: "Write a deterministic listings corpus (the talk's JSON shape) to standard output.")

    @Option(help: "Size of the corpus in bytes (at least).")
    var bytes = 20_000_000

    @Option(help: "Seed: the same seed gives the same bytes.")
    var seed: UInt64 = 1

    func run() throws {
        FileHandle.standardOutput.write(Data(ListingsCorpus.generate(bytes: bytes, seed: seed)))
    }
}

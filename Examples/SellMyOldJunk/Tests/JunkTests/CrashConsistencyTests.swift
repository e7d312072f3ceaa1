import Foundation
import JunkClient
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A child process buys in a loop and is killed with SIGKILL at random points:
/// every buy it confirmed is in the history, and no partial file is read as valid.
@Suite struct CrashConsistencyTests {
    @Test func killedMidWriteLosesNoConfirmedPurchaseAndReadsNoPartialFile() async throws {
        var random = SeededGenerator(seed: SeededGenerator.seed(for: "crash consistency"))
        let folder = try temporaryFolder("crash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = PurchaseHistory(folder: folder.appendingPathComponent("history"))
        var confirmed: Set<String> = []
        for round in 0..<12 {
            let process = Process()
            process.executableURL = executable("junk")
            process.arguments = ["save-loop", "--history", history.folder.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Kill it after a random delay: anywhere from before its first write to deep in a run of them.
            let delay = UInt64.random(in: 20...400, using: &random)
            try await Task.sleep(for: .milliseconds(delay))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round)")
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // Only complete lines: a line cut by the kill is not a confirmation.
            for line in printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast() where line.hasPrefix("saved ") {
                confirmed.insert(String(line.dropFirst("saved ".count)))
            }
            let loaded = try history.load()
            #expect(loaded.quarantined.isEmpty, "round \(round): \(loaded.quarantined.map(\.problems))")
            let present = Set(loaded.entries.map(\.file))
            #expect(confirmed.isSubset(of: present), "round \(round): lost \(confirmed.subtracting(present))")
        }
        #expect(!confirmed.isEmpty)
        print("crash consistency: \(confirmed.count) confirmed purchases over 12 kills, none lost")
    }
}

import Foundation
import JunkClient
import JunkDemo
import JunkModel
import Synchronization
import Testing

/// Every step of the demo's tamper tour, asserted: the stage, path and code that caught it.
@Suite struct TamperTourTests {
    @Test(arguments: TamperStep.tour.map(\.name))
    func eachAttackIsCaughtWhereItShouldBe(_ name: String) async throws {
        let step = try #require(TamperStep.tour.first { $0.name == name })
        let folder = try temporaryFolder("tour")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withLiveServer { server, client in
            let history = PurchaseHistory(folder: folder.appendingPathComponent("history"))
            let outcome = try await TamperTour(server: server, client: client, history: history).run(step)
            let first = try #require(outcome.problems.first)
            #expect(first.stage == step.expected.stage)
            #expect(first.path == step.expected.path)
            #expect(first.code == step.expected.code)
            #expect(outcome.caughtAsExpected)
            switch outcome.lenient {
            case .success(let lenient)?:
                // Only a listing whose problems are all in its tags may be skipped.
                #expect(step.expected.path.hasPrefix("$[0].tags"))
                #expect(lenient.skipped.map(\.index) == [0])
                #expect(lenient.listings.map(\.id) == [2, 3, 4, 5, 6])
            case .failure(let rejected)?:
                #expect(!step.expected.path.hasPrefix("$[0].tags"))
                #expect(rejected.problems.first?.code == step.expected.code)
            case nil:
                // A history step: the genuine purchase still loads; the bad file is in quarantine.
                let loaded = try history.load()
                #expect(loaded.entries.count == 1)
                #expect(try FileManager.default.contentsOfDirectory(atPath: history.quarantine.path).count == 1)
            }
            // Nothing sticks: the next untampered request passes.
            #expect(try await client.listings().listings.count == 6)
        }
    }

    @Test func theDemoRunsEveryStageAndCatchesEveryAttack() async throws {
        let lines = Mutex<[String]>([])
        let outcomes = try await Demo.run(terminal: Terminal(colour: false)) { line in lines.withLock { $0.append(line) } }
        #expect(outcomes.count == TamperStep.tour.count)
        #expect(outcomes.allSatisfy { $0.caughtAsExpected })
        let text = lines.withLock { $0.joined(separator: "\n") }
        #expect(text.contains("signed by ") && text.contains("(RFC 9421)"))
        #expect(text.contains("bought \"Guitar\""))
        #expect(text.contains("Every attack was caught at the stage meant to catch it."))
        // One purchase, one purchase reported (before: "4 purchases load": each history attack saved one).
        #expect(text.contains("history after the tour: 1 purchase loads, as bought"), "\(text)")
        // Stage names are the library's: a number where a tag belongs is the structure stage.
        #expect(text.contains("at the structure stage") && !text.contains("primitive stage"))
        #expect(!text.contains("\u{1B}["))  // no colour when asked for none
    }
}

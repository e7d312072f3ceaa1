import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedTestSupport

@Suite struct ArchiveRobustnessTests {
    /// Vetted's own archives: the talk's purchase, every value class, a shared graph.
    static func ownArchives() throws -> [(String, Data)] {
        let shared = Node()
        return [
            ("purchase", try KeyedArchiver.archivedData(withRootObject: Purchase.sample)),
            ("purchases", try KeyedArchiver.archivedData(withRootObject: [Purchase.sample, Purchase.sample])),
            ("values", try KeyedArchiver.archivedData(withRootObject: ["a": [1, 2], "b": [3]] as [String: [Int]])),
            ("nodes", try KeyedArchiver.archivedData(withRootObject: [Node(next: shared), Node(next: shared)])),
            (
                "mixed",
                try KeyedArchiver.archivedData(
                    withRootObject: ArchivedValue.array([
                        .date(Date(timeIntervalSinceReferenceDate: 1)), .url(URL(fileURLWithPath: "/x")), .null, .string("s"),
                        .set([.integer(1)]), .dictionary([.string("k")], [.real(1.5)]),
                    ]))
            ),
        ]
    }

    static var inputs: [String] {
        AppleArchives.names + ["purchase", "purchases", "values", "nodes", "mixed"]
    }

    /// Every single-byte mutation of every Apple archive and of Vetted's own gives a value or a
    /// typed error. By default 3 replacement values per byte, decoded as ArchivedValue and as a
    /// Purchase; with VETTED_EXHAUSTIVE=1 (by hand, release build: see the README) all 255, also inspected as a graph.
    @Test(arguments: inputs)
    func everySingleByteMutationGivesAValueOrATypedError(name: String) throws {
        let original: Data
        if let own = try Self.ownArchives().first(where: { $0.0 == name }) {
            original = own.1
        } else {
            // Apple's archives are among the arguments only when present (`inputs`).
            original = try AppleArchives.data(name)
        }
        let limits = Limits(maxValues: 100_000)
        for position in original.indices {
            let byte = original[position]
            let replacements = SingleByteMutations.replacements(for: byte) { [0x00, 0xFF, $0 ^ 0x01] }
            for replacement in replacements {
                var mutated = original
                mutated[position] = replacement
                for decode in SingleByteMutations.exhaustive ? Self.decoders : Array(Self.decoders.prefix(2)) {
                    do {
                        _ = try decode(mutated, limits)
                    } catch is VettedError {
                    } catch is Purchase.DateBeforeLaunch {
                    } catch {
                        Issue.record("\(name) byte \(position) → \(replacement): untyped error \(error)")
                        return
                    }
                }
            }
        }
    }

    static let decoders: [@Sendable (Data, Limits) throws -> Any?] = [
        { try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: $0, limits: $1) },
        { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: $0, limits: $1) },
        { try ArchiveGraph(parsing: Array($0), limits: $1).classNames() },
    ]
}

public import ArgumentParser
import Foundation
import JunkClient
import JunkDemo
import JunkModel
import Vetted

/// `junk`: the validating client of Sell My Old Junk.
@main
struct Junk: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "junk",
        abstract: "Sell My Old Junk: a client that validates every stage of the data it loads.",
        subcommands: [Demo.self, Listings.self, Validate.self, Import.self, Buy.self, History.self, Load.self, SaveLoop.self])
}

/// Where the server is and how to trust it.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The server's public key file, pinned: only its signatures are accepted.")
    var serverKey = ".junk-server/server.pub"

    func client() throws -> ListingsClient {
        let bytes = try BoundedReader.read(contentsOfFile: serverKey, maxBytes: 4096)
        let keys = try TrustedKeys(fileText: String(decoding: bytes, as: UTF8.self))
        return ListingsClient(baseURL: server, trustedKeys: keys)
    }
}

struct HistoryOptions: ParsableArguments {
    @Option(help: "The purchase history folder (bad files go to quarantine/ beside it).")
    var history = ".junk/history"

    var store: PurchaseHistory { PurchaseHistory(folder: URL(fileURLWithPath: history)) }
}

extension ResponsePolicy: ExpressibleByArgument {}

/// Prints what failed, stage and path first; exits 1.
func reject(_ error: any Error, terminal: Terminal) -> ExitCode {
    let report: String
    switch error {
    case let rejected as ListingsRejected:
        report = "rejected:\n" + terminal.problems(rejected.problems, limit: 20)
    case is VettedError, is DecodingError, is ValidationErrors:
        report = "rejected:\n" + terminal.problems(Problem.all(in: error), limit: 20)
    default:
        // The network or the file system: nothing came from the data, so say what failed.
        report = "could not reach the server or read the data: \(error)"
    }
    FileHandle.standardError.write(Data((report + "\n").utf8))
    return ExitCode(1)
}

extension Junk {
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs server and client in-process: listings → buy → history, then the tamper tour.")

        func run() async throws {
            let outcomes = try await JunkDemo.Demo.run()
            if outcomes.contains(where: { !$0.caughtAsExpected }) { throw ExitCode(1) }
        }
    }

    struct Listings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fetches, verifies, decodes and validates the listings.")
        @OptionGroup var server: ServerOptions
        @Option(help: "Only listings with this tag.") var tag: String?
        @Option(help: "strict: any problem rejects the response; skip-invalid-tags: skip listings whose only problems are their tags.")
        var policy = ResponsePolicy.strict

        func run() async throws {
            let terminal = Terminal()
            var tagValue: Listing.Tag?
            if let tag {
                guard let known = Listing.Tag(rawValue: tag) else { throw ValidationError("unknown tag; one of music, electric, acoustic, vintage, books, tools, garden, kids") }
                tagValue = known
            }
            do {
                let checked = try await server.client().listings(tagged: tagValue, policy: policy)
                print(terminal.table(checked.listings))
                if !checked.skipped.isEmpty { print(terminal.skipped(checked.skipped)) }
            } catch {
                throw reject(error, terminal: terminal)
            }
        }
    }

    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks a listings JSON file offline with the same rules (exit 0 valid, 1 invalid).")
        @Argument(help: "A listings JSON file.") var file: String
        @Option(help: "strict or skip-invalid-tags.") var policy = ResponsePolicy.strict

        func run() async throws {
            let terminal = Terminal()
            do {
                let verified = try Gate.admit(.file(path: file), policy: GatePolicy(maxBytes: ListingsAPI.maximumResponseBytes))
                let checked = try ListingsChecker().check(verified.bytes, policy: policy, report: verified.report)
                print("valid: \(checked.listings.count) listings" + (checked.skipped.isEmpty ? "" : "; skipped \(checked.skipped.count)"))
                if !checked.skipped.isEmpty { print(terminal.skipped(checked.skipped)) }
            } catch {
                throw reject(error, terminal: terminal)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sends a file of listings to the server's import, streamed (exit 0 all stored, 1 any refused).",
            discussion: "One listing per line (JSON Lines), unless --content-type says otherwise.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "A file of listings, one per line.") var file: String
        @Option(help: "application/x-ndjson, application/jsonl, application/json-seq, or application/json for one array.")
        var contentType = "application/x-ndjson"

        func run() async throws {
            let terminal = Terminal()
            do {
                let answer = try await server.client().importListings(from: URL(fileURLWithPath: file), contentType: contentType)
                guard let report = answer.report else {
                    print("refused (\(answer.status)): \(answer.detail)\n" + terminal.problems(answer.problems, limit: 20))
                    throw ExitCode(1)
                }
                print("imported \(report.imported) listings")
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw reject(error, terminal: terminal)
            }
        }
    }

    struct Buy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Buys a listing: the purchase is archived into the history.")
        @OptionGroup var server: ServerOptions
        @OptionGroup var history: HistoryOptions
        @Argument(help: "The listing's id.") var id: Int

        func run() async throws {
            let terminal = Terminal()
            let listings: [Listing]
            do {
                listings = try await server.client().listings().listings
            } catch {
                throw reject(error, terminal: terminal)
            }
            guard let listing = listings.first(where: { $0.id == id }) else { throw ValidationError("no listing has id \(id)") }
            let purchase = Purchase(listing: listing.archived, date: Date(), receipt: Data((0..<16).map { _ in UInt8.random(in: 0...255) }))
            let file = try history.store.save(purchase)
            print("bought \"\(terminal.shown(listing.name))\" for \(terminal.shown(listing.price)) → \(terminal.shown(file.path))")
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the purchase history, offline; quarantines bad files.")
        @OptionGroup var history: HistoryOptions

        func run() async throws {
            let terminal = Terminal()
            let loaded = try history.store.load()
            for entry in loaded.entries {
                print("\(entry.purchase.date.formatted(.iso8601))  #\(entry.purchase.listing.id)  \(terminal.shown(entry.purchase.listing.name))")
            }
            if loaded.entries.isEmpty { print("no purchases") }
            for bad in loaded.quarantined {
                print(terminal.red("quarantined \(terminal.shown(bad.file))") + (bad.movedTo.map { " → \(terminal.shown($0.path))" } ?? ""))
                print(terminal.problems(bad.problems))
            }
            for name in loaded.unreadable {
                print(terminal.red("unreadable \(terminal.shown(name))") + " (permissions; left in place)")
            }
            if loaded.incompleteWritesRemoved > 0 { print(terminal.dim("removed \(loaded.incompleteWritesRemoved) incomplete writes")) }
            if !loaded.quarantined.isEmpty || !loaded.unreadable.isEmpty { throw ExitCode(1) }
        }
    }

    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A bounded load test of GET /listings, then a flood of bad POSTs while GETs go on.")
        @Option(help: "The server's base URL.") var server = "http://127.0.0.1:8080"
        @Option(help: "Concurrent connections.") var connections = 16
        @Option(help: "Seconds per phase.") var seconds = 10

        func run() async throws {
            try await LoadGenerator.report(server: server, connections: connections, seconds: seconds)
        }
    }

    /// For the crash-consistency test: buys in a loop, printing each file once it is durable.
    struct SaveLoop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "save-loop", shouldDisplay: false)
        @OptionGroup var history: HistoryOptions
        @Option(help: "Milliseconds to wait between buys (the concurrency test's writers).") var pauseMilliseconds = 0
        @Option(help: "Stop after this many buys (0: never).") var count = 0

        func run() async throws {
            let store = history.store
            var id = 1
            while count == 0 || id <= count {
                if pauseMilliseconds > 0 { try await Task.sleep(for: .milliseconds(pauseMilliseconds)) }
                let listing = Listing.samples[id % Listing.samples.count]
                let file = try store.save(Purchase(listing: listing.archived, date: Date(), receipt: Data(repeating: UInt8(id & 0xFF), count: 32)))
                FileHandle.standardOutput.write(Data("saved \(file.lastPathComponent)\n".utf8))  // unbuffered
                id += 1
            }
        }
    }
}

public import Foundation
public import JunkClient
public import JunkModel
public import JunkServer
import Vetted
import AsyncHTTPClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output for people: colour only on a terminal (and never with `NO_COLOR`).
public struct Terminal: Sendable {
    public let colour: Bool

    public init(colour: Bool? = nil) {
        self.colour = colour ?? (isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }

    public func bold(_ text: String) -> String { paint(text, "1") }
    public func green(_ text: String) -> String { paint(text, "32") }
    public func red(_ text: String) -> String { paint(text, "31") }
    public func yellow(_ text: String) -> String { paint(text, "33") }
    public func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    /// Untrusted text (a listing's name, a server's message, a file name) as it
    /// may be printed: controls, escape sequences, bidirectional overrides and
    /// invisible characters escaped (`\u{1b}`), never acted on by the terminal.
    public func shown(_ text: String) -> String { Excerpt.escape(text, maximumBytes: 4_096, quotes: false) }

    /// Listings as a table.
    public func table(_ listings: [Listing]) -> String {
        var lines = [bold("   ID  NAME                            PRICE  SOLD  TAGS")]
        for listing in listings {
            let safe = shown(listing.name)
            let name = safe.count > 30 ? String(safe.prefix(29)) + "…" : safe
            lines.append(
                String(format: "%5d  ", listing.id) + name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + shown(listing.price).leftPadded(to: 8) + (listing.sold ? "   yes  " : "    no  ")
                    + listing.tags.map(\.rawValue).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The listings a lenient client skipped, each with its problems.
    public func skipped(_ skipped: [CheckedListings.Skipped]) -> String {
        skipped.map { yellow("skipped $[\($0.index)]:") + "\n" + problems($0.problems) }.joined(separator: "\n")
    }

    public func problems(_ problems: [Problem], limit: Int = 5) -> String {
        var lines = problems.prefix(limit).map {
            "      \(red("✗")) \($0.stage) stage · \(bold(shown($0.path))) · \(shown($0.code)): \(shown($0.message))"
        }
        if problems.count > limit { lines.append("      … and \(problems.count - limit) more") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// `junk demo`: the whole lifecycle, then the tamper tour. Returns the tour's outcomes.
public enum Demo {
    @discardableResult
    public static func run(terminal: Terminal = Terminal(), print: @Sendable (String) -> Void = { Swift.print($0) }) async throws -> [TamperOutcome] {
        try await LiveServer.with { server, client, root in
            try await tour(server: server, client: client, root: root, terminal: terminal, print: print)
        }
    }

    private static func tour(
        server: RunningServer, client: ListingsClient, root: URL, terminal t: Terminal, print: @Sendable (String) -> Void
    ) async throws -> [TamperOutcome] {
        let history = PurchaseHistory(folder: root.appendingPathComponent("client/history"))

        print(t.bold("Sell My Old Junk — data you can trust"))
        print(t.dim("server on \(server.baseURL) (in-process, loopback); client pins key \(server.service.identity.publicKey.keyID)"))

        print("\n" + t.bold("1. junk listings") + t.dim("  — GET /listings, then every stage"))
        let checked = try await client.listings()
        if let report = checked.report {
            print("   raw: \(report.byteCount) bytes ≤ cap · SHA-256 matches Content-Digest · signed by \(report.signedBy.map(\.rawValue) ?? "-") (RFC 9421)")
        }
        print("   syntax, structure, rules: \(checked.listings.count) listings decoded with the talk's rules")
        print(t.table(checked.listings).split(separator: "\n").map { "   " + $0 }.joined(separator: "\n"))

        print("\n" + t.bold("2. junk buy 1") + t.dim("  — KeyedArchiver (secure coding), atomic write, checksum"))
        guard let guitar = checked.listings.first(where: { $0.id == 1 }) else { throw ListingsRejected([]) }
        let purchase = Purchase(listing: guitar.archived, date: Date(), receipt: Data((0..<16).map { _ in UInt8.random(in: 0...255) }))
        let file = try history.save(purchase)
        print("   bought \"\(guitar.name)\" → \(file.lastPathComponent)")

        print("\n" + t.bold("3. junk history") + t.dim("  — offline: checksum, KeyedUnarchiver(ofClass: Purchase), date window"))
        for entry in try history.load().entries {
            print("   \(entry.purchase.listing.name) (#\(entry.purchase.listing.id)) bought \(entry.purchase.date.formatted(.iso8601))")
        }

        print("\n" + t.bold("4. The tamper tour") + t.dim("  — each attack, and the stage that caught it"))
        // The history attacks write files (a genuine purchase each, and the forged file beside it)
        // into a history folder of their own: the one above keeps only what was bought.
        let tourHistory = PurchaseHistory(folder: root.appendingPathComponent("client/tour-history"))
        let tour = TamperTour(server: server, client: client, history: tourHistory)
        var outcomes: [TamperOutcome] = []
        for (number, step) in TamperStep.tour.enumerated() {
            let outcome = try await tour.run(step)
            outcomes.append(outcome)
            let mark = outcome.caughtAsExpected ? t.green("caught") : t.red("NOT CAUGHT AS EXPECTED")
            print("   \(String(number + 1).leftPadded(to: 2)). \(t.bold(step.name)): \(step.attack)")
            print("       \(mark) at the \(step.expected.stage) stage")
            print(t.problems(outcome.problems, limit: 2))
            if case .success(let lenient)? = outcome.lenient, !lenient.skipped.isEmpty {
                let skipped = lenient.skipped.map { "$[\($0.index)] (\($0.problems.map { "\($0.path) \($0.code)" }.joined(separator: ", ")))" }
                print(t.yellow("       skip-invalid-tags policy: skipped \(skipped.joined(separator: "; ")), kept \(lenient.listings.count) listings"))
            }
        }
        let loaded = try history.load()
        let count = loaded.entries.count
        print(
            "\n   history after the tour: \(count) \(count == 1 ? "purchase loads" : "purchases load"), as bought"
                + " (the tour's attacks ran on a history folder of their own; \(quarantinedCount(tourHistory)) forged files quarantined there)")
        let failures = outcomes.filter { !$0.caughtAsExpected }
        print(failures.isEmpty ? t.green("\nEvery attack was caught at the stage meant to catch it.") : t.red("\n\(failures.count) attacks were not caught as expected."))
        return outcomes
    }

    private static func quarantinedCount(_ history: PurchaseHistory) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: history.quarantine.path).count) ?? 0
    }
}

/// A server in this process, on an ephemeral loopback port with a temporary
/// data directory, and a client that pins its key: for the demo and the tests.
public enum LiveServer {
    /// Runs `body` with them; stops both and removes the directory afterwards.
    public static func with<T>(_ body: (RunningServer, ListingsClient, _ root: URL) async throws -> T) async throws -> T {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await ListingsServer.start(try ListingsServer.prepare(dataDirectory: root.appendingPathComponent("server")))
        let http = ListingsClient.makeHTTPClient()
        do {
            let client = ListingsClient(baseURL: server.baseURL, trustedKeys: try TrustedKeys([server.service.identity.publicKey]), http: http)
            let result = try await body(server, client, root)
            try await http.shutdown()
            await server.stop()
            return result
        } catch {
            try? await http.shutdown()
            await server.stop()
            throw error
        }
    }
}

import Foundation
import JunkServer
import Testing

/// `junk listings`, `buy` and `history` as a user runs them, against a live server.
@Suite struct CommandTests {
    @Test func listingsBuyAndHistoryFromTheCommandLine() async throws {
        let folder = try temporaryFolder("commands")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("server")
        let server = try await ListingsServer.start(try ListingsServer.prepare(dataDirectory: data))
        let junk = executable("junk")
        let key = data.appendingPathComponent(ServerIdentity.publicKeyFile).path
        let history = folder.appendingPathComponent("history").path
        let common = ["--server", server.baseURL, "--server-key", key]

        let listings = try await run(junk, ["listings"] + common)
        #expect(listings.status == 0)
        #expect(listings.stdout.contains("Guitar"))
        #expect(!listings.stdout.contains("\u{1B}["))  // not a terminal: no colour
        let music = try await run(junk, ["listings", "--tag", "music", "--policy", "skip-invalid-tags"] + common)
        #expect(music.stdout.split(separator: "\n").count == 3)  // header and two listings
        let unknownTag = try await run(junk, ["listings", "--tag", "guitars"] + common)
        #expect(unknownTag.status == 64)

        let bought = try await run(junk, ["buy", "1", "--history", history] + common)
        #expect(bought.status == 0)
        #expect(bought.stdout.hasPrefix("bought \"Guitar\" for 120.00"))
        let shown = try await run(junk, ["history", "--history", history])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("#1  Guitar"))

        // The server's key as PEM (its id derived from the key) works as well as server.pub.
        let pem = try await run(
            junk, ["listings", "--server", server.baseURL, "--server-key", data.appendingPathComponent(ServerIdentity.publicPEMFile).path])
        #expect(pem.status == 0, "\(pem.stderr)")

        // A wrong pinned key: rejected at the raw stage, exit 1.
        let otherKey = folder.appendingPathComponent("other")
        _ = try ListingsServer.prepare(dataDirectory: otherKey)
        let forged = try await run(junk, ["listings", "--server", server.baseURL, "--server-key", otherKey.appendingPathComponent("server.pub").path])
        #expect(forged.status == 1)
        #expect(forged.stderr.contains(#"raw stage · $["signature-input"].junk · unknownKeyID"#), "\(forged.stderr)")
        await server.stop()

        // No server at all: a clear message, exit 1.
        let down = try await run(junk, ["listings"] + common)
        #expect(down.status == 1)
        #expect(down.stderr.contains("could not reach"))

        // A tampered history file: reported, quarantined, exit 1; the next run is clean.
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: history).first)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: history).appendingPathComponent(file))
        let tampered = try await run(junk, ["history", "--history", history])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("quarantined \(file)"))
        #expect(tampered.stdout.contains("raw stage · $ · truncated"))
        #expect(try await run(junk, ["history", "--history", history]).stdout == "no purchases\n")
    }

    /// A FIFO given as the server's key is refused at once: it is never opened, so it cannot hang.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkfifo"), "needs mkfifo"))
    func aFIFOAsTheServerKeyIsRefusedWithoutHanging() async throws {
        let folder = try temporaryFolder("fifo-key")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("server.pub").path
        let make = try Process.run(URL(fileURLWithPath: "/usr/bin/mkfifo"), arguments: [fifo])
        make.waitUntilExit()
        let result = try await run(executable("junk"), ["listings", "--server", "http://127.0.0.1:9", "--server-key", fifo])
        #expect(result.status != 0)
        #expect(result.stderr.contains("is not a regular file"))
    }
}

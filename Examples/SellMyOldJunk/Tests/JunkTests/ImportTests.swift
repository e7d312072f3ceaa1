import Foundation
import JunkClient
import JunkModel
import JunkServer
import Testing
import Vetted

/// `POST /listings/import` and `junk import`: a stream of listings, each stored or refused as it arrives.
@Suite struct ImportTests {
    /// Listing `id` (the first sample's other fields), as one line of JSON.
    static func line(_ id: Int, price: String? = nil) throws -> String {
        var listing = Listing.samples[0]
        listing.id = id
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var text = String(decoding: try encoder.encode(listing), as: UTF8.self)
        if let price { text = text.replacingOccurrences(of: #""price":"\#(listing.price)""#, with: #""price":"\#(price)""#) }
        return text
    }

    /// Two new listings, a price the rules refuse, an id in use and a cut-off record: the two
    /// are stored, each refusal is an entry under its record's index.
    static func mixedFile(in folder: URL) throws -> URL {
        let lines = [try line(100), try line(101, price: "free"), try line(1), try line(102), #"{"id":103,"#]
        let file = folder.appendingPathComponent("import.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        return file
    }

    @Test func eachListingIsStoredOrRefusedUnderItsIndex() async throws {
        let folder = try temporaryFolder("import")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withLiveServer { _, client in
            let answer = try await client.importListings(from: try Self.mixedFile(in: folder))
            #expect(answer.status == 422 && answer.report == nil)
            #expect(answer.detail == "3 of 5 records refused; the other 2 were stored")
            #expect(answer.problems.map { "\($0.path) \($0.stage) \($0.code)" } == [
                "$[1].price rules patternMismatch", "$[2].id store idInUse", "$[4] syntax unterminatedObject",
            ])
            // Stored as they arrived, and served at once (the cached first page was dropped).
            let ids = try await client.listings().listings.map(\.id)
            #expect(ids.contains(100) && ids.contains(102) && !ids.contains(101))
        }
    }

    /// The same records as one JSON array, and a media type that is no stream (415, unread).
    @Test func anArrayImportsAndAnotherMediaTypeIsRefused() async throws {
        let folder = try temporaryFolder("import-array")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("import.json")
        try Data(("[" + [try Self.line(200), try Self.line(201, price: "1.999")].joined(separator: ",") + "]").utf8).write(to: file)
        try await withLiveServer { _, client in
            let array = try await client.importListings(from: file, contentType: "application/json")
            #expect(array.status == 422 && array.detail == "1 of 2 records refused; the other 1 were stored")
            #expect(array.problems.map(\.path) == ["$[1].price"])
            // Only an id in use (200's, now): 409, not 422.
            let stored = folder.appendingPathComponent("stored.jsonl")
            try Data((try Self.line(200) + "\n").utf8).write(to: stored)
            let again = try await client.importListings(from: stored)
            #expect(again.status == 409 && again.problems.map(\.code) == ["idInUse"])
            let refused = try await client.importListings(from: file, contentType: "text/csv")
            #expect(refused.status == 415 && refused.report == nil)
            #expect(refused.problems.map(\.code) == ["unsupportedMediaType"])
        }
    }

    @Test func junkImportPrintsTheReportAndExitsOneWhenARecordIsRefused() async throws {
        let folder = try temporaryFolder("import-command")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("server")
        let server = try await ListingsServer.start(try ListingsServer.prepare(dataDirectory: data))
        let common = ["--server", server.baseURL, "--server-key", data.appendingPathComponent(ServerIdentity.publicKeyFile).path]
        let mixed = try await run(executable("junk"), ["import", try Self.mixedFile(in: folder).path] + common)
        #expect(mixed.status == 1)
        #expect(mixed.stdout.hasPrefix("refused (422): 3 of 5 records refused; the other 2 were stored\n"), "\(mixed.stdout)")
        #expect(mixed.stdout.contains("$[1].price"), "\(mixed.stdout)")
        let clean = folder.appendingPathComponent("clean.jsonl")
        try Data((try Self.line(300) + "\n").utf8).write(to: clean)
        let stored = try await run(executable("junk"), ["import", clean.path] + common)
        #expect(stored.status == 0)
        #expect(stored.stdout == "imported 1 listings\n")
        await server.stop()
    }
}

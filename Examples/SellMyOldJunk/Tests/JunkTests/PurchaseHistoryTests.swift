import Foundation
import JunkClient
import JunkModel
import Testing
import Vetted

/// The offline purchase history: every check, quarantine, and the files it writes.
@Suite struct PurchaseHistoryTests {
    let folder: URL
    let history: PurchaseHistory

    init() throws {
        folder = try temporaryFolder("history")
        history = PurchaseHistory(folder: folder.appendingPathComponent("history"))
    }

    static func purchase(id: Int = 1, date: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> Purchase {
        Purchase(listing: Listing.samples[id - 1].archived, date: date, receipt: Data(repeating: UInt8(id), count: 16))
    }

    /// Writes a history file with the given archive bytes (checksum computed) and returns its name.
    func write(archive: Data, name: String = "1-1-test.purchase") throws -> String {
        try FileManager.default.createDirectory(at: history.folder, withIntermediateDirectories: true)
        try Data(PurchaseHistory.fileBytes(archive: Array(archive))).write(to: history.folder.appendingPathComponent(name))
        return name
    }

    func onlyProblem(of name: String) throws -> Problem {
        let loaded = try history.load()
        let bad = try #require(loaded.quarantined.first { $0.file == name })
        #expect(bad.problems.count == 1)
        #expect(bad.movedTo?.lastPathComponent == name)
        #expect(!FileManager.default.fileExists(atPath: history.folder.appendingPathComponent(name).path))
        return try #require(bad.problems.first)
    }

    /// A history path that names a file is a clear error, for loading and for saving.
    @Test func aHistoryPathThatIsAFileSaysSo() throws {
        try Data("x".utf8).write(to: history.folder)
        for attempt in [{ _ = try history.load() }, { _ = try history.save(Self.purchase()) }] as [() throws -> Void] {
            let error = #expect(throws: PurchaseHistory.NotAFolder.self) { try attempt() }
            #expect(error?.description == "the purchase history \(history.folder.path) is not a folder")
        }
    }

    /// A FIFO named like a purchase is quarantined from its metadata, never opened (which would block).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mkfifo"), "needs mkfifo"))
    func aFIFOInTheHistoryIsQuarantinedWithoutBlocking() throws {
        try history.save(Self.purchase())
        let fifo = history.folder.appendingPathComponent("x.purchase")
        let make = try Process.run(URL(fileURLWithPath: "/usr/bin/mkfifo"), arguments: [fifo.path])
        make.waitUntilExit()
        let problem = try onlyProblem(of: "x.purchase")
        #expect(problem.stage == .raw)
        #expect(problem.code == "unreadableInput")
        #expect(try history.load().entries.count == 1)
    }

    /// An archived listing that breaks `Listing`'s rules is a rules-stage problem at its path.
    @Test func anArchivedListingOutOfRangeIsQuarantined() throws {
        let purchase = Purchase(listing: ArchiveListing(id: 0, name: "Lamp", tags: ["music"]), date: Date(timeIntervalSince1970: 1_700_000_000), receipt: Data([1]))
        let name = try write(archive: try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true))
        let problem = try onlyProblem(of: name)
        #expect(problem.stage == .rules)
        #expect(problem.code == "outOfRange")
        #expect(problem.path == "$.root.listing.id")
    }

    /// A leftover named like an unfinished write but that is a folder is left alone, contents and all.
    @Test func aTmpLeftoverThatIsAFolderIsNotRemoved() throws {
        try history.save(Self.purchase())
        let leftover = history.folder.appendingPathComponent(".1-1-x.purchase.tmp")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: leftover.appendingPathComponent("inside"))
        let loaded = try history.load()
        #expect(loaded.entries.count == 1)
        #expect(loaded.incompleteWritesRemoved == 0)
        #expect(FileManager.default.fileExists(atPath: leftover.appendingPathComponent("inside").path))
    }

    @Test func savedPurchasesLoadBackInOrder() throws {
        let first = try history.save(Self.purchase(id: 1, date: Date(timeIntervalSince1970: 1_600_000_000)))
        try history.save(Self.purchase(id: 3, date: Date(timeIntervalSince1970: 1_700_000_000)))
        let loaded = try history.load()
        #expect(loaded.entries.map(\.purchase) == [Self.purchase(id: 1, date: Date(timeIntervalSince1970: 1_600_000_000)), Self.purchase(id: 3)])
        #expect(loaded.quarantined.isEmpty)
        // Format: magic, SHA-256 of the archive, the archive; owner-only.
        let bytes = Array(try Data(contentsOf: first))
        #expect(Array(bytes.prefix(8)) == Array("JUNKPUR1".utf8))
        #expect(Array(bytes[8..<40]) == DigestAlgorithm.sha256.digest(of: bytes[40...]))
        let permissions = try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func aFlippedByteIsAChecksumMismatch() throws {
        let file = try history.save(Self.purchase())
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 10] ^= 0x01
        try bytes.write(to: file)
        let problem = try onlyProblem(of: file.lastPathComponent)
        #expect(problem == Problem(stage: .raw, path: "$", code: "checksumMismatch", message: problem.message))
    }

    @Test func aFileShorterThanItsHeaderIsTruncated() throws {
        let file = try history.save(Self.purchase())
        try Data(try Data(contentsOf: file).prefix(20)).write(to: file)
        #expect(try onlyProblem(of: file.lastPathComponent).code == "truncated")
    }

    @Test func anOversizeFileIsRefusedUnread() throws {
        let name = "2-2-big.purchase"
        try FileManager.default.createDirectory(at: history.folder, withIntermediateDirectories: true)
        try Data(count: PurchaseHistory.maximumFileBytes + 1).write(to: history.folder.appendingPathComponent(name))
        let problem = try onlyProblem(of: name)
        #expect(problem.stage == .raw)
        #expect(problem.code == "inputSizeLimitExceeded")
    }

    @Test func aDateBeforeTheLaunchIsRejected() throws {
        let name = try write(archive: try KeyedArchiver.archivedData(withRootObject: Self.purchase(date: Date(timeIntervalSince1970: 1_000_000_000))))
        #expect(try onlyProblem(of: name) == Problem(stage: .rules, path: "$", code: "dateBeforeLaunch", message: "the purchase date is before the app's launch"))
    }

    @Test func aDateInTheFutureIsRejected() throws {
        let name = try write(archive: try KeyedArchiver.archivedData(withRootObject: Self.purchase(date: Date().addingTimeInterval(86_400))))
        #expect(try onlyProblem(of: name) == Problem(stage: .rules, path: "$", code: "dateInFuture", message: "the purchase date is in the future"))
    }

    @Test func aListingWhereAPurchaseShouldBeIsAClassNotAllowed() throws {
        let name = try write(archive: try KeyedArchiver.archivedData(withRootObject: Listing.samples[0].archived))
        let problem = try onlyProblem(of: name)
        #expect(problem.stage == .structured)
        #expect(problem.path == "$.root")
        #expect(problem.code == "classNotAllowed")
    }

    @Test func bytesThatAreNotAnArchiveAreReportedNotCrashedOn() throws {
        let name = try write(archive: Data("definitely not a property list".utf8))
        let problem = try onlyProblem(of: name)
        #expect(problem.stage == .syntax)
        #expect(problem.code == "unknownPlistFormat")
    }

    @Test func badFilesGoToQuarantineAndTheRestStillLoad() throws {
        try history.save(Self.purchase(id: 1))
        let bad = try history.save(Self.purchase(id: 2))
        try history.save(Self.purchase(id: 4))
        try Data("garbage".utf8).write(to: bad)
        let loaded = try history.load()
        #expect(loaded.entries.map(\.purchase.listing.id) == [1, 4])
        #expect(loaded.quarantined.map(\.file) == [bad.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: history.quarantine.appendingPathComponent(bad.lastPathComponent).path))
        // A second load finds nothing more to quarantine.
        #expect(try history.load().quarantined.isEmpty)
    }

    @Test func temporaryFilesOfInterruptedWritesAreRemovedNeverRead() throws {
        try history.save(Self.purchase(id: 1))
        let partial = history.folder.appendingPathComponent(".123-1-abcd.purchase.tmp")
        try Data(PurchaseHistory.magic).write(to: partial)
        // Left by a writer that died: older than the age a write in progress could have.
        let abandoned = Date().addingTimeInterval(-PurchaseHistory.abandonedWriteAge - 1)
        try FileManager.default.setAttributes([.modificationDate: abandoned], ofItemAtPath: partial.path)
        let loaded = try history.load()
        #expect(loaded.entries.count == 1)
        #expect(loaded.quarantined.isEmpty)
        #expect(loaded.incompleteWritesRemoved == 1)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }
}

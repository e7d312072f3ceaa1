import Foundation
import JunkClient
import JunkModel
import Testing
import Vetted

#if canImport(Glibc)
import Glibc
#endif

/// Hostile history files and concurrent use: every one bounded, reported, never fatal.
@Suite struct HistoryAttackTests {
    let history: PurchaseHistory

    init() throws {
        history = PurchaseHistory(folder: try temporaryFolder("attack").appendingPathComponent("history"))
    }

    /// A genuine purchase's archive with `extra` added to the purchase object under `key`,
    /// written as a binary plist (equal strings once, so a repeated string is one object).
    static func archive(adding extra: PlistValue, key: String = "smuggled") throws -> [UInt8] {
        let genuine = try KeyedArchiver.archivedData(withRootObject: PurchaseHistoryTests.purchase(), requiringSecureCoding: true)
        guard case .dictionary(var archive) = try PlistParser().parse(genuine), case .array(var objects)? = archive["$objects"],
            let root = archive["$top"]?["root"]?.uidValue, case .dictionary(let purchase) = objects[Int(root)]
        else { throw CocoaError(.coderInvalidValue) }
        objects[Int(root)] = .dictionary(PlistDictionary(Array(purchase) + [PlistDictionary.Entry(key: key, value: extra)]))
        archive = PlistDictionary(archive.map { $0.key == "$objects" ? PlistDictionary.Entry(key: $0.key, value: .array(objects)) : $0 })
        return PlistWriter.binary(.dictionary(archive))
    }

    func write(_ archive: [UInt8], name: String = "1-1-attack.purchase") throws -> String {
        try FileManager.default.createDirectory(at: history.folder, withIntermediateDirectories: true)
        try Data(PurchaseHistory.fileBytes(archive: archive)).write(to: history.folder.appendingPathComponent(name))
        return name
    }

    /// References to one 120 KB string under a key no one reads: the attack's 250 KB file held
    /// 130,000 of them (15 GB, and every launch aborted); 2,000 (240 MB from 122 KB) show the same
    /// bound at a test's cost. The reader stops at 100× the file and quarantines it.
    @Test func aFileOfSharedReferencesIsQuarantinedNotFatal() throws {
        let big = String(repeating: "x", count: 120_000)
        let archive = try Self.archive(adding: .array(Array(repeating: .string(big), count: 2_000)))
        #expect(archive.count + 40 < PurchaseHistory.maximumFileBytes)
        let name = try write(archive)
        try history.save(PurchaseHistoryTests.purchase(id: 2))
        let loaded = try history.load()
        #expect(loaded.entries.count == 1)
        let bad = try #require(loaded.quarantined.first)
        #expect(bad.file == name)
        let problem = try #require(bad.problems.first)
        #expect(problem.stage == .syntax)
        #expect(problem.code == "amplificationLimitExceeded")
        #expect(problem.path.hasPrefix(#"$["$objects"]["#) && problem.path.contains("].smuggled["), "\(problem.path)")
        #expect(bad.movedTo?.lastPathComponent == name)
        // Moved away: the next launch loads cleanly.
        #expect(try history.load().quarantined.isEmpty)
    }

    /// A valid purchase with one more key: corrupt, not a purchase with a passenger.
    @Test func aKeyThePurchaseNeverReadsIsCorrupt() throws {
        let name = try write(try Self.archive(adding: .string("riding along")))
        let bad = try #require(try history.load().quarantined.first)
        #expect(bad.file == name)
        #expect(bad.problems.map(\.code) == ["archiveCorrupted"])
        #expect(bad.problems.first?.stage == .structured)
        #expect(bad.problems.first?.path == "$.root.smuggled")
    }

    /// A write in progress (a fresh temporary file) is never removed; one older than the stated age is.
    @Test func onlyAbandonedTemporaryFilesAreRemoved() throws {
        try history.save(PurchaseHistoryTests.purchase())
        let fresh = history.folder.appendingPathComponent(".2-2-fresh.purchase.tmp")
        let stale = history.folder.appendingPathComponent(".3-3-stale.purchase.tmp")
        try Data("half".utf8).write(to: fresh)
        try Data("half".utf8).write(to: stale)
        let old = Date().addingTimeInterval(-PurchaseHistory.abandonedWriteAge - 60)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: stale.path)
        let loaded = try history.load()
        #expect(loaded.entries.count == 1)
        #expect(loaded.incompleteWritesRemoved == 1)
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    /// Writers in two other processes buy while this one loads the history again and again: no
    /// writer fails (a reader once deleted their temporary files mid-write), nothing is quarantined.
    @Test func concurrentWritersAndReadersAcrossProcesses() async throws {
        let buys = 150
        var writers: [(Process, Pipe)] = []
        for _ in 0..<2 {
            let process = Process()
            process.executableURL = executable("junk")
            // A buy every 10 ms, 150 each: writes overlap the loads, and the history stays small.
            process.arguments = ["save-loop", "--history", history.folder.path, "--pause-milliseconds", "10", "--count", String(buys)]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            writers.append((process, errors))
        }
        var loads = 0
        // Bounded: at most 4,000 rounds of 5 ms (the writers take a few seconds).
        while writers.contains(where: { $0.0.isRunning }), loads < 4_000 {
            let loaded = try history.load()
            #expect(loaded.quarantined.isEmpty, "load \(loads): \(loaded.quarantined.map(\.problems))")
            #expect(loaded.incompleteWritesRemoved == 0)
            loads += 1
            try await Task.sleep(for: .milliseconds(5))
        }
        for (process, errors) in writers {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            // A failed save ends the loop with an error and a non-zero status.
            #expect(process.terminationStatus == 0, "a writer failed: \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        }
        let final = try history.load()
        #expect(final.entries.count == 2 * buys)
        #expect(loads > 1)
        print("concurrent history: \(loads) loads beside 2 writer processes, \(final.entries.count) purchases, no failed write")
    }

    /// A save that cannot create its file says why.
    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder"))
    func aSaveThatCannotCreateItsFileSaysWhy() throws {
        try FileManager.default.createDirectory(at: history.folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: history.folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: history.folder.path) }
        let error = #expect(throws: PurchaseHistory.SaveFailed.self) { try history.save(PurchaseHistoryTests.purchase()) }
        #expect(error?.reason == "permission denied (errno 13)")
    }

    /// Permissions are not contents: a file this process may not read is reported and left in place.
    @Test(.enabled(if: getuid() != 0, "root reads a file whatever its mode"))
    func anUnreadableFileIsReportedNotMoved() throws {
        let file = try history.save(PurchaseHistoryTests.purchase())
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path) }
        let loaded = try history.load()
        #expect(loaded.unreadable == [file.lastPathComponent])
        #expect(loaded.quarantined.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }
}

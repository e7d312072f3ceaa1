public import Foundation
public import JunkModel
import Vetted

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The offline purchase history: one file per purchase in a folder.
///
/// A file is `JUNKPUR1` (8 bytes), the SHA-256 of the archive (32 bytes),
/// then the archive: a keyed archive of ``Purchase`` written by
/// `KeyedArchiver` requiring secure coding. Files are written atomically —
/// a temporary file, fsync, rename, fsync of the folder — so a crash leaves
/// either the whole file or none of it; `save` returns only after that.
///
/// Loading checks every stage and quarantines what fails: size and checksum
/// (raw: corruption, truncation), the archive with only `Purchase` at the
/// root and only `Listing` under it (structured: a swapped class), the
/// purchase date not before the launch nor in the future (rules). A bad
/// file is moved to `quarantine/` beside the folder; the rest still load.
/// The checksum finds corruption, not an attacker (who can recompute it): the
/// secure unarchiver is what stands against a crafted file. Its cost is bounded
/// by the file cap and `Limits` (shared references count each time they are
/// used), and an archive holding a key `Purchase` or `Listing` never reads is
/// corrupt, not a purchase with something riding along.
///
/// Readers and writers may run at once, in any number of processes: a reader
/// removes only temporary files older than ``abandonedWriteAge`` (a write takes
/// milliseconds, so such a file is one whose writer died), never a write in
/// progress. A file the process may not read (permissions) is reported in
/// ``Loaded/unreadable`` and left where it is: it is not known to be bad.
public struct PurchaseHistory: Sendable {
    public let folder: URL
    public var quarantine: URL { folder.deletingLastPathComponent().appendingPathComponent("quarantine") }

    public static let magic = Array("JUNKPUR1".utf8)
    public static let fileExtension = "purchase"
    /// Largest history file read.
    public static let maximumFileBytes = 256 * 1024
    /// How old a temporary file must be before a reader takes it for an abandoned write and removes it.
    public static let abandonedWriteAge: TimeInterval = 15 * 60
    /// Clock skew tolerated for a purchase date "now".
    public static let allowedClockSkew: TimeInterval = 300

    public init(folder: URL) { self.folder = folder }

    /// The history's path names something that is not a folder.
    public struct NotAFolder: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "the purchase history \(Excerpt.escape(path, maximumBytes: 1_024, quotes: false)) is not a folder" }
    }

    /// Whether the history's folder exists; throws ``NotAFolder`` when its path names something else.
    private func folderExists() throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return false }
        guard isDirectory.boolValue else { throw NotAFolder(path: folder.path) }
        return true
    }

    // MARK: Saving

    /// Archives `purchase` and writes it durably; returns the file's URL once it is on disk.
    @discardableResult
    public func save(_ purchase: Purchase) throws -> URL {
        if try !folderExists() { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let archive = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        let bytes = Self.fileBytes(archive: Array(archive))
        // Milliseconds since 1970 sort the files by date; a date beyond Int's range (never a real one) gets 0.
        let stamp = Int(exactly: (purchase.date.timeIntervalSince1970 * 1000).rounded(.down)) ?? 0
        let name = "\(stamp)-\(purchase.listing.id)-\(UUID().uuidString.prefix(8).lowercased()).\(Self.fileExtension)"
        let final = folder.appendingPathComponent(name)
        let temporary = folder.appendingPathComponent(".\(name).tmp")
        try writeDurably(bytes, temporary: temporary, final: final)
        return final
    }

    /// The file's bytes for an archive: magic, checksum, archive.
    public static func fileBytes(archive: [UInt8]) -> [UInt8] {
        magic + DigestAlgorithm.sha256.digest(of: archive) + archive
    }

    /// A save that failed, with the system's reason (no space, no inodes, no permission).
    public struct SaveFailed: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String {
            "cannot save the purchase to \(Excerpt.escape(path, maximumBytes: 1_024, quotes: false)): \(reason)"
        }
    }

    private func writeDurably(_ bytes: [UInt8], temporary: URL, final: URL) throws {
        let files = FileManager.default
        // open(2) rather than FileManager.createFile, which says only "failed" (errno is the why).
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw SaveFailed(path: temporary.path, reason: SystemErrorText.describe(code))
        }
        do {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            try handle.write(contentsOf: bytes)
            try handle.synchronize()  // fsync: the bytes are on disk before the name is
        }
        try files.moveItem(at: temporary, to: final)  // rename(2): atomic within the folder
        guard let directory = FileHandle(forReadingAtPath: folder.path) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: folder.path])
        }
        defer { try? directory.close() }
        try directory.synchronize()  // fsync of the folder: the rename itself is durable
    }

    // MARK: Loading

    /// A purchase that loaded, and the file it came from.
    public struct Entry: Sendable {
        public var file: String
        public var purchase: Purchase
    }

    /// A file that did not, why, and where it went.
    public struct Quarantined: Sendable {
        public var file: String
        public var problems: [Problem]
        public var movedTo: URL?
    }

    public struct Loaded: Sendable {
        /// Oldest first.
        public var entries: [Entry]
        public var quarantined: [Quarantined]
        /// Files this process may not read (permissions): reported, left in place.
        public var unreadable: [String] = []
        /// Temporary files of writes that never completed (a crash), older than
        /// ``PurchaseHistory/abandonedWriteAge``; removed, never read.
        public var incompleteWritesRemoved: Int
    }

    /// Loads every purchase, quarantining the files that fail a check.
    public func load(now: Date = Date()) throws -> Loaded {
        let files = FileManager.default
        guard try folderExists() else { return Loaded(entries: [], quarantined: [], incompleteWritesRemoved: 0) }
        var loaded = Loaded(entries: [], quarantined: [], incompleteWritesRemoved: 0)
        for name in try files.contentsOfDirectory(atPath: folder.path).sorted() {
            let url = folder.appendingPathComponent(name)
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                // Only a regular file is a write this store left unfinished: anything else
                // named like one (a folder, a link) is not ours to delete, let alone recursively.
                // A younger one may be another process's write in progress: never touched.
                let attributes = try? files.attributesOfItem(atPath: url.path)
                let type = attributes?[.type] as? FileAttributeType
                let modified = attributes?[.modificationDate] as? Date ?? now
                if type == .typeRegular, now.timeIntervalSince(modified) > Self.abandonedWriteAge {
                    try? files.removeItem(at: url)
                    loaded.incompleteWritesRemoved += 1
                }
                continue
            }
            guard name.hasSuffix("." + Self.fileExtension) else { continue }
            // Permissions say nothing of the contents: report the file, leave it.
            if (try? files.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular,
                !files.isReadableFile(atPath: url.path)
            {
                loaded.unreadable.append(name)
                continue
            }
            switch Self.read(url, now: now) {
            case .success(let purchase):
                loaded.entries.append(Entry(file: name, purchase: purchase))
            case .failure(let rejected):
                loaded.quarantined.append(Quarantined(file: name, problems: rejected.problems, movedTo: try? moveToQuarantine(url)))
            }
        }
        return loaded
    }

    /// Every check on one history file, without moving it.
    public static func read(_ url: URL, now: Date = Date()) -> Result<Purchase, ListingsRejected> {
        func fail(_ stage: Problem.Stage, _ code: String, _ message: String) -> Result<Purchase, ListingsRejected> {
            .failure(ListingsRejected([Problem(stage: stage, path: "$", code: code, message: message)]))
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedReader.read(contentsOfFile: url.path, maxBytes: maximumFileBytes)
        } catch {
            return .failure(ListingsRejected(Problem.all(in: error, direct: .raw)))
        }
        let headerLength = magic.count + 32
        guard bytes.count > headerLength, bytes.starts(with: magic) else {
            return fail(.raw, "truncated", "the file is \(bytes.count) bytes: shorter than a header and an archive, or not a history file")
        }
        let archive = Array(bytes[headerLength...])
        guard ConstantTime.equals(bytes[magic.count..<headerLength], DigestAlgorithm.sha256.digest(of: archive)) else {
            return fail(.raw, "checksumMismatch", "the archive's SHA-256 is not the one recorded: the file is corrupt or truncated")
        }
        let purchase: Purchase
        do {
            // Every key of a purchase and its listing is known: one never read is corrupt, not ignored.
            let unarchiver = try KeyedUnarchiver(forReadingFrom: archive)
            unarchiver.rejectsUnreadKeys = true
            guard let decoded = try unarchiver.finish(unarchiver.decodeObject(of: Purchase.self, forKey: KeyedUnarchiver.rootKey)) else {
                return fail(.structured, "decodingFailed", "the archive's root is not a purchase")
            }
            purchase = decoded
        } catch is Purchase.DateBeforeLaunch {
            return fail(.rules, "dateBeforeLaunch", "the purchase date is before the app's launch")
        } catch let error as VettedError {
            // The archive's own checks are the structured stage; a listing's rules the rules
            // stage; the property list under them the syntax stage.
            let stage: Problem.Stage = archiveCodes.contains(error.code) ? .structured : error.code.isRuleViolation ? .rules : .syntax
            return .failure(ListingsRejected(Problem.all(in: error, direct: stage)))
        } catch {
            return .failure(ListingsRejected(Problem.all(in: error, direct: .structured)))
        }
        guard purchase.date <= now.addingTimeInterval(allowedClockSkew) else {
            return fail(.rules, "dateInFuture", "the purchase date is in the future")
        }
        return .success(purchase)
    }

    private static let archiveCodes: Set<VettedError.Code> = [
        .notAKeyedArchive, .archiveCorrupted, .classNotAllowed, .secureCodingNotSupported, .typeMismatch, .archiveCycle, .decodingFailed,
    ]

    private func moveToQuarantine(_ url: URL) throws -> URL {
        let files = FileManager.default
        try files.createDirectory(at: quarantine, withIntermediateDirectories: true)
        var destination = quarantine.appendingPathComponent(url.lastPathComponent)
        if files.fileExists(atPath: destination.path) {
            destination = quarantine.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(url.lastPathComponent)")
        }
        try files.moveItem(at: url, to: destination)
        return destination
    }
}

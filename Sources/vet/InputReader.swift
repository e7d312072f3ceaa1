import Foundation
import Vetted

/// Reads a file or standard input, never more than `maxBytes + 1` bytes.
enum InputReader {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The bytes of `path` (`-` for standard input). Throws ``VettedError``
    /// (`inputSizeLimitExceeded`) when there is more than `maxBytes`, and
    /// ``Unreadable`` when the input cannot be read at all.
    static func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: path)
            } catch {
                throw Unreadable(description: "no such file, or it cannot be accessed")
            }
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                throw Unreadable(description: "is a directory")
            }
            // The size from metadata first: an oversize regular file is refused without reading it.
            if attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? NSNumber, size.int64Value > Int64(maxBytes)
            {
                throw tooLarge(seen: "\(size.int64Value)", maxBytes: maxBytes)
            }
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw Unreadable(description: "permission denied or not a readable file")
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        // Read at most maxBytes + 1, so growth while reading is caught too.
        let (cap, _) = maxBytes.addingReportingOverflow(1)
        var bytes: [UInt8] = []
        while bytes.count < cap {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Swift.min(1 << 20, cap - bytes.count))
            } catch {
                throw Unreadable(description: "read failed")
            }
            guard let chunk, !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
        }
        if bytes.count > maxBytes { throw tooLarge(seen: "more than \(maxBytes)", maxBytes: maxBytes) }
        return bytes
    }

    private static func tooLarge(seen: String, maxBytes: Int) -> VettedError {
        VettedError(
            code: .inputSizeLimitExceeded, offset: maxBytes,
            message: "input is \(seen) bytes; the limit is \(maxBytes) (--max-bytes)")
    }
}

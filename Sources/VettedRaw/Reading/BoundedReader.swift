public import Foundation
public import VettedCore

/// Reads bytes from a file, a file handle, an asynchronous sequence of chunks
/// or memory, never more than a cap.
///
/// The cap is checked before bytes are kept: a regular file's size is read
/// from its metadata first, so an oversize file is refused without reading
/// it; then at most `maxBytes + 1` bytes are read, so a file that grows while
/// it is read, a pipe or a network body is stopped as soon as it passes the cap.
/// Exceeding the cap is `inputSizeLimitExceeded`,
/// whose message says the limit and how much was seen.
public enum BoundedReader {
    /// Bytes read from a file handle in one call.
    public static let chunkSize = 1 << 20

    /// The whole of a file, if it holds at most `maxBytes` bytes.
    ///
    /// Only a regular file is opened unless `acceptingPipes` is set: a FIFO,
    /// a device or a socket given where a file was expected is refused from its
    /// metadata (`unreadableInput`), before an open that could block forever
    /// waiting for a writer. A command-line tool that takes `<(…)` passes `true`.
    ///
    /// `observe` sees every chunk as it is read (the gate hashes them there),
    /// so nothing has to be read twice.
    ///
    /// - Throws: `VettedError`: the file is missing, not a regular file (unless `acceptingPipes`), unreadable, or over `maxBytes` (`inputSizeLimitExceeded`).
    public static func read(
        contentsOfFile path: String, maxBytes: Int, acceptingPipes: Bool = false, observe: (ArraySlice<UInt8>) -> Void = { _ in }
    ) throws(VettedError) -> [UInt8] {
        let opened = try open(path, maxBytes: maxBytes, acceptingPipes: acceptingPipes)
        defer { try? opened.handle.close() }
        return try read(from: opened.handle, maxBytes: maxBytes, expectedSize: opened.size, observe: observe)
    }

    /// Everything a file handle (a pipe, a socket, standard input) delivers, if at most `maxBytes`.
    /// Stops reading at `maxBytes + 1`.
    ///
    /// - Throws: `VettedError`: a read fails, or more than `maxBytes` arrive (`inputSizeLimitExceeded`).
    public static func read(
        from handle: FileHandle, maxBytes: Int, observe: (ArraySlice<UInt8>) -> Void = { _ in }
    ) throws(VettedError) -> [UInt8] {
        try read(from: handle, maxBytes: maxBytes, expectedSize: nil, observe: observe)
    }

    /// Bytes already in memory, if at most `maxBytes`.
    ///
    /// - Throws: `VettedError` (`inputSizeLimitExceeded`) past `maxBytes`.
    public static func read(_ bytes: some Collection<UInt8>, maxBytes: Int) throws(VettedError) -> [UInt8] {
        guard bytes.count <= maxBytes else { throw tooLarge(seen: "\(bytes.count)", maxBytes: maxBytes) }
        return Array(bytes)
    }

    /// Every chunk of an asynchronous sequence (an HTTP body, say), if they add up to at most `maxBytes`.
    ///
    /// A chunk that would pass the cap is refused before it is kept, and no
    /// further chunk is requested. Errors of the sequence itself are rethrown as they are.
    ///
    /// - Throws: `VettedError` (`inputSizeLimitExceeded`) past `maxBytes`; errors of the sequence itself as they are.
    public static func read<Chunks: AsyncSequence>(
        _ chunks: Chunks, maxBytes: Int, observe: (ArraySlice<UInt8>) -> Void = { _ in }
    ) async throws -> [UInt8] where Chunks.Element: Collection<UInt8> {
        var bytes: [UInt8] = []
        for try await chunk in chunks {
            let (total, overflow) = bytes.count.addingReportingOverflow(chunk.count)
            guard !overflow, total <= maxBytes else {
                throw tooLarge(seen: "at least \(overflow ? Int.max : total)", maxBytes: maxBytes)
            }
            let start = bytes.count
            bytes.append(contentsOf: chunk)
            observe(bytes[start...])
        }
        return bytes
    }

    /// Opens a file after checking, from its metadata, that it is a readable
    /// regular file (or, when `acceptingPipes`, a device, pipe or socket) no larger than `maxBytes`.
    static func open(_ path: String, maxBytes: Int, acceptingPipes: Bool = false) throws(VettedError) -> (handle: FileHandle, size: Int?) {
        let files = FileManager.default
        let entry: [FileAttributeKey: Any]
        do {
            entry = try files.attributesOfItem(atPath: path)
        } catch {
            throw unreadable("no such file, or it cannot be accessed")
        }
        var type = entry[.type] as? FileAttributeType
        var resolved = entry
        if type == .typeSymbolicLink {
            // What the link names; a target that is no path (`/dev/fd/63` → `pipe:[…]`) is a pipe.
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            if let targetAttributes = try? files.attributesOfItem(atPath: target), target != path {
                resolved = targetAttributes
                type = targetAttributes[.type] as? FileAttributeType
            } else {
                type = .typeUnknown
            }
        }
        if type == .typeDirectory { throw unreadable("is a directory") }
        if type != .typeRegular && !acceptingPipes {
            throw unreadable("is not a regular file (a pipe, a device or a socket): it is not opened, so it cannot block")
        }
        let attributes = resolved
        var size: Int?
        if type == .typeRegular, let reported = attributes[.size] as? NSNumber {
            // Size from metadata first: an oversize regular file is refused without reading it.
            guard reported.int64Value <= Int64(maxBytes) else {
                throw tooLarge(seen: "\(reported.int64Value)", maxBytes: maxBytes)
            }
            size = Int(reported.int64Value)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw unreadable("permission denied or not a readable file")
        }
        return (handle, size)
    }

    /// Reads at most `maxBytes + 1` bytes in chunks.
    static func read(
        from handle: FileHandle, maxBytes: Int, expectedSize: Int?, observe: (ArraySlice<UInt8>) -> Void
    ) throws(VettedError) -> [UInt8] {
        var bytes: [UInt8] = []
        // The metadata size is at most maxBytes, checked: reserving it is bounded.
        if let expectedSize { bytes.reserveCapacity(Swift.min(expectedSize, maxBytes)) }
        try forEachChunk(of: handle, maxBytes: maxBytes) { chunk in
            let start = bytes.count
            bytes.append(contentsOf: chunk)
            observe(bytes[start...])
        }
        return bytes
    }

    /// Hands `body` each chunk `handle` delivers until its end, if they add up
    /// to at most `maxBytes`: reads at most `maxBytes + 1` bytes, and the chunk
    /// that passes the cap is refused before `body` sees it. The one read loop
    /// behind bounded reads and streamed digests.
    static func forEachChunk(of handle: FileHandle, maxBytes: Int, _ body: (Data) -> Void) throws(VettedError) {
        let (cap, overflow) = maxBytes.addingReportingOverflow(1)
        let limit = overflow ? maxBytes : cap
        var total = 0
        var interruptions = 0
        while total < limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: Swift.min(chunkSize, limit - total))
                interruptions = 0
            } catch where isInterruption(error) && interruptions < 1_000 {
                // A signal arrived during the read (EINTR): nothing was read; read again.
                interruptions += 1
                continue
            } catch {
                throw unreadable("read failed")
            }
            guard let chunk, !chunk.isEmpty else { return }
            let (sum, overflow) = total.addingReportingOverflow(chunk.count)
            guard !overflow, sum <= maxBytes else { throw tooLarge(seen: "more than \(maxBytes)", maxBytes: maxBytes) }
            total = sum
            body(chunk)
        }
    }

    /// Whether a failed read was only interrupted by a signal (EINTR), perhaps wrapped by Foundation.
    static func isInterruption(_ error: any Error) -> Bool {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain && error.code == Int(EINTR) { return true }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map { $0.domain == NSPOSIXErrorDomain && $0.code == Int(EINTR) } ?? false
    }

    static func tooLarge(seen: String, maxBytes: Int) -> VettedError {
        VettedError(
            code: .inputSizeLimitExceeded, offset: maxBytes,
            message: "input is \(seen) bytes; the limit is \(maxBytes)")
    }

    static func unreadable(_ why: String) -> VettedError {
        VettedError(code: .unreadableInput, message: why)
    }
}

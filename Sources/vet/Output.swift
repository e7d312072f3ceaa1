import ArgumentParser
import Foundation
import Vetted

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output as `vet` writes it: in chunks as they are produced (never the
/// whole output in memory), every write checked, and no more in all than the
/// input's expansion allowance (``Limits/expansionAllowance(forInputBytes:)``).
///
/// A write that fails (a full disk, a closed descriptor, a reader gone) is
/// ``Output/WriteFailed``: `vet` says so on standard error and exits 74, never
/// traps. Output past the allowance is `amplificationLimitExceeded`.
struct Output {
    /// A write to standard output failed.
    struct WriteFailed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot write the output: \(reason)" }
    }

    private var budget: ExpansionBudget

    /// Output for an input of `inputBytes` under `limits`.
    init(limits: Limits, inputBytes: Int) {
        budget = ExpansionBudget(limits: limits, inputBytes: inputBytes)
    }

    /// Writes `chunk` and empties it; counts it against the allowance first.
    mutating func flush(_ chunk: inout [UInt8]) throws {
        guard budget.charge(chunk.count) else {
            throw VettedError(code: .amplificationLimitExceeded, message: "the output would be larger than \(budget.allowance) bytes: \(budget.exceededMessage)")
        }
        try Self.write(chunk)
        chunk.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` to standard output, or throws ``WriteFailed``.
    static func write(_ bytes: [UInt8]) throws(WriteFailed) {
        do {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        } catch {
            throw WriteFailed(reason: Self.reason(error))
        }
    }

    /// Writes `text` and a line break to standard output; a failed write is
    /// reported on standard error and thrown as exit 74 (never `print`'s silence).
    static func line(_ text: String) throws {
        do { try write(Array((text + "\n").utf8)) } catch { throw failed(error) }
    }

    /// The system's words for a failed write (`no space left on device (errno 28)`).
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return SystemErrorText.describe(Int32(truncatingIfNeeded: underlying.code)) }
        if error.domain == NSPOSIXErrorDomain { return SystemErrorText.describe(Int32(truncatingIfNeeded: error.code)) }
        return Excerpt.escape(error.localizedDescription, maximumBytes: 200, quotes: false)
    }

    /// A broken pipe is then a failed write (exit 74), not a silent death by SIGPIPE.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Reports a failed write on standard error and gives exit 74.
    static func failed(_ failure: WriteFailed) -> ExitCode {
        try? FileHandle.standardError.write(contentsOf: Array("vet: \(failure.description)\n".utf8))
        return VetExit.outputFailed
    }
}

/// Text written piece by piece to ``Output``: pieces gather into a chunk of
/// about 64 KiB, which is then written, so no whole listing is held in memory.
struct ChunkedOutput {
    private var output: Output
    private(set) var chunk: [UInt8] = []
    static let chunkBytes = 64 << 10

    init(limits: Limits, inputBytes: Int) {
        output = Output(limits: limits, inputBytes: inputBytes)
        chunk.reserveCapacity(Self.chunkBytes)
    }

    mutating func append(_ text: String) throws {
        chunk.append(contentsOf: text.utf8)
        if chunk.count >= Self.chunkBytes { try output.flush(&chunk) }
    }

    /// Writes `value` as pretty JSON nested at `level` (its lines indented to match).
    mutating func append(json value: JSONValue, level: Int) throws {
        // The buffer and the output as locals: the writer holds one while flushing to the other.
        var pending = chunk
        var sink = output
        defer {
            chunk = pending
            output = sink
        }
        try JSONWriter(style: .pretty).write(value, into: &pending, level: level, chunkBytes: Self.chunkBytes) { full in
            try sink.flush(&full)
        }
    }

    /// Writes what is left.
    mutating func finish() throws { try output.flush(&chunk) }
}


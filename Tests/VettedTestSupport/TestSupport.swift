public import Foundation
public import Testing
public import VettedCore

/// The error `body` throws; `nil` (and a recorded issue) when it succeeds.
public func thrownError(
    _ body: () throws(VettedError) -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> VettedError? {
    do {
        try body()
        Issue.record("expected an error, got none", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The replacement values of single-byte mutation tests.
public enum SingleByteMutations {
    /// `VETTED_EXHAUSTIVE=1` (by hand, in a release build; see the README): every other byte value.
    public static let exhaustive = ProcessInfo.processInfo.environment["VETTED_EXHAUSTIVE"] == "1"

    /// The values to put in place of `byte`: all 255 others when exhaustive, else those of
    /// `sample(byte)` that differ from it.
    public static func replacements(for byte: UInt8, sample: (UInt8) -> [UInt8]) -> Set<UInt8> {
        (exhaustive ? Set(0...UInt8.max) : Set(sample(byte))).subtracting([byte])
    }
}

/// What `body` returns when run on a thread with a 512 KiB stack, the
/// smallest a Swift platform gives a thread (Darwin's secondary threads):
/// where tests show that deep input cannot overflow the stack.
public func onSmallStack<T>(_ body: @escaping @Sendable () -> T) async -> T {
    await onThread(stackSize: 512 * 1024, body)
}

/// What `body` returns when run on a thread with a stack of `stackSize` bytes.
public func onThread<T>(stackSize: Int, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = stackSize
        thread.start()
    }
}

/// Everything a pipe delivers until its end. Foundation's `readDataToEndOfFile()`
/// traps when a signal interrupts the read (EINTR: a child process exiting);
/// this reads again instead.
public func readAll(_ handle: FileHandle) throws -> Data {
    var result = Data()
    while true {
        do {
            guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else { return result }
            result.append(chunk)
        } catch let error as NSError
            where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(EINTR) || error.code == Int(EINTR) {
            continue
        }
    }
}

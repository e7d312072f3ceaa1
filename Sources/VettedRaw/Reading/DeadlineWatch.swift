import VettedCore

extension BoundedReader {
    /// Every chunk of an asynchronous sequence (an HTTP body), if they add up to at most
    /// `maxBytes` and arrive within `timeout`. A body whose `declaredLength` (its
    /// `Content-Length`) is over `maxBytes` is refused without reading a byte.
    ///
    /// The chunks are read in a task of their own (``DeadlineWatch/run(until:_:)``), cancelled
    /// once the deadline has passed. Cancelling the caller cancels the read.
    ///
    /// - Throws: `VettedError`: `inputSizeLimitExceeded` past `maxBytes`, `deadlineExceeded`
    ///   past `timeout` (whatever the sequence did when its task was cancelled); `CancellationError`
    ///   when the caller is cancelled; errors of the sequence itself as they are.
    package static func read<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, maxBytes: Int, within timeout: Duration, declaredLength: Int64? = nil
    ) async throws -> [UInt8] where Chunks.Element: Collection<UInt8> {
        if let declaredLength, declaredLength > Int64(maxBytes) {
            throw VettedError(code: .inputSizeLimitExceeded, message: "the body is declared as \(declaredLength) bytes, over the limit of \(maxBytes)")
        }
        let read: @Sendable () async throws -> [UInt8] = { try await BoundedReader.read(chunks, maxBytes: maxBytes) }
        guard let bytes = try await DeadlineWatch.shared.run(until: ContinuousClock.now.advanced(by: timeout), read) else {
            throw VettedError(code: .deadlineExceeded, message: "the body did not all arrive within \(timeout)")
        }
        return bytes
    }
}

/// The deadlines of the bodies being read now, checked every 50 ms by one task for the
/// process: a body still arriving at its deadline has its read cancelled within 50 ms after
/// it. Adding and removing one is a lock and a dictionary entry, without a timer or a task
/// of its own. (A task group with a sleeping task per body cost about a third of the
/// requests a server answers each second.)
///
/// The watching task runs only while something is watched.
package final class DeadlineWatch: Sendable {
    package static let shared = DeadlineWatch()
    static let period = Duration.milliseconds(50)

    private struct Entry: Sendable {
        let deadline: ContinuousClock.Instant
        let cancel: @Sendable () -> Void
    }

    private struct State: Sendable {
        var next: UInt64 = 0
        var watched: [UInt64: Entry] = [:]
        var watching = false
    }

    private let state = Locked(State())

    private init() {}

    /// Watches `deadline`: `cancel` runs once it has passed, unless removed first.
    package func add(_ deadline: ContinuousClock.Instant, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        var id: UInt64 = 0
        var start = false
        state.update { state in
            id = state.next
            state.next &+= 1
            state.watched[id] = Entry(deadline: deadline, cancel: cancel)
            if !state.watching {
                state.watching = true
                start = true
            }
        }
        if start { Task.detached { await self.watch() } }
        return id
    }

    /// Runs `work` in a task of its own, started where the caller runs (no hop to another
    /// thread for work that can finish at once), and cancels it once `deadline` has passed.
    /// Cancelling the caller cancels the work.
    ///
    /// - Returns: `work`'s result, or `nil` when the deadline passed first (whatever `work`
    ///   did when cancelled: a cancelled read may end early without an error, as an
    ///   `AsyncStream` just finishes, so what ended it is asked of the watch, never of the result).
    /// - Throws: `CancellationError` when the caller is cancelled; else what `work` throws.
    package func run<T: Sendable>(
        until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let running: Task<T, any Error>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            running = Task.immediate { try await work() }
        } else {
            running = Task { try await work() }
        }
        let watched = add(deadline) { running.cancel() }
        let outcome = await withTaskCancellationHandler {
            await running.result
        } onCancel: {
            running.cancel()
        }
        guard remove(watched) else { return nil }
        try Task.checkCancellation()
        return try outcome.get()
    }

    /// Stops watching `id`; `false` if its deadline had passed (and its `cancel` has run or is running).
    package func remove(_ id: UInt64) -> Bool {
        var removed = false
        state.update { removed = $0.watched.removeValue(forKey: id) != nil }
        return removed
    }

    /// Every `period`, cancels what has passed its deadline; stops when nothing is left to watch.
    private func watch() async {
        while true {
            do {
                try await Task.sleep(for: Self.period)
            } catch {
                // Cancelled (never, as started here): every read still watched is cancelled rather than left unwatched.
                var all: [@Sendable () -> Void] = []
                state.update { state in
                    all = state.watched.values.map(\.cancel)
                    state.watched = [:]
                    state.watching = false
                }
                for cancel in all { cancel() }
                return
            }
            let now = ContinuousClock.now
            var expired: [@Sendable () -> Void] = []
            var done = false
            state.update { state in
                for (id, entry) in state.watched where entry.deadline <= now {
                    expired.append(entry.cancel)
                    state.watched[id] = nil
                }
                if state.watched.isEmpty {
                    state.watching = false
                    done = true
                }
            }
            for cancel in expired { cancel() }
            if done { return }
        }
    }
}

// NSLock is in Foundation on every platform (FoundationEssentials has no lock).
import Foundation

/// A value shared between threads, every read and write under one lock: the
/// options of a decoder that, like Foundation's, may be shared by tasks.
///
/// `@unchecked Sendable`: the one stored value is reached only inside
/// `lock.withLock`, so no two threads touch it at once; `Value` is `Sendable`,
/// so what a reader takes out is safe to keep.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// A copy of the value as it is now.
    package var current: Value { lock.withLock { value } }

    /// Changes the value in place.
    package func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}

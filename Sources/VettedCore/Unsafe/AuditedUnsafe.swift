// The one file in Vetted with unsafe code. Audit rules:
// - every read goes through `load(_:)` or `loadWord(_:)`, and every caller of
//   those checks the index against `count` first; `bytesEqual(_:_:)` also reads
//   the other span's buffer, only below its `count`;
// - the buffer pointer is private and never leaves this file;
// - a `ByteScanner` is created only inside `SourceText.withScanner`, which
//   keeps the bytes alive for the whole closure, or as `ByteScanner.empty` (a null
//   base and a count of 0: nothing is ever read); its initializer is fileprivate,
//   so no client can make one; the holders that keep a copy beyond a local
//   (VettedJSON's `DecodingDocument`, during `VettedJSONDecoder.decode`, and a
//   stream's byte reader, parked between records in `StreamByteReader`) set it
//   inside the closure and clear it (`nil`, or `empty`) before the closure returns;
// - `firstIndex(of:in:)` hands `memchr` a start and a length inside the buffer
//   (the range clamped to `0..<count`, the base checked non-null) and turns the
//   pointer it returns back into an offset;
// - `Array.movingTail` moves initialized elements into uninitialized storage of
//   exactly their count and refills the vacated slots before the array is
//   shortened, so every slot is initialized exactly once when it is destroyed;
// - `StackGuard` only compares addresses: it takes the address of one of its
//   own locals and never dereferences it;
// - `SameType.cast` reinterprets a value only as its own type: it checks
//   `Value.self == T.self` first and throws otherwise.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#elseif canImport(WASILibc)
import WASILibc
#endif

/// A cursor over input bytes: the single place raw bytes are scanned.
///
/// Reads outside the input yield 0 (never a trap); callers tell a real NUL
/// from the end by ``isAtEnd``.
/// Public only as SPI (`@_spi(Scanning)`), so that its hot paths inline into
/// the format modules; no client can create one (the initializer is fileprivate).
@safe @frozen @_spi(Scanning)
public struct ByteScanner {
    @usableFromInline let buffer: UnsafeBufferPointer<UInt8>
    /// Number of input bytes.
    public let count: Int
    /// Current position; may equal ``count`` (the end).
    public var offset: Int = 0

    fileprivate init(buffer: UnsafeBufferPointer<UInt8>) {
        unsafe self.buffer = buffer
        self.count = buffer.count
    }

    /// A scanner over no bytes (a null base and a count of 0: nothing is ever loaded), for a
    /// reader parked between the records of a stream, so that it holds no pointer into
    /// bytes that are gone.
    public static var empty: ByteScanner { unsafe ByteScanner(buffer: UnsafeBufferPointer(start: nil, count: 0)) }

    /// Caller guarantees `0 <= index < count`.
    @inlinable @inline(__always)
    func load(_ index: Int) -> UInt8 {
        unsafe buffer[index]
    }

    /// Caller guarantees `0 <= index` and `count - index >= 8`.
    @inlinable @inline(__always)
    func loadWord(_ index: Int) -> UInt64 {
        unsafe UnsafeRawBufferPointer(buffer).loadUnaligned(fromByteOffset: index, as: UInt64.self)
    }

    @inlinable public var isAtEnd: Bool { offset >= count }

    /// The byte at `index`, or 0 outside the input.
    @inlinable @inline(__always)
    public func byte(at index: Int) -> UInt8 {
        index >= 0 && index < count ? load(index) : 0
    }

    /// The byte at ``offset``, or 0 at the end.
    @inlinable @inline(__always)
    public var current: UInt8 { byte(at: offset) }

    /// Skips JSON whitespace: space, tab, line feed, carriage return.
    @inlinable @inline(__always)
    public mutating func skipWhitespace() {
        while offset >= 0, offset < count {
            switch load(offset) {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Skips string bytes that need no attention: stops at `"`, `\`, a control
    /// character, a non-ASCII byte, or the end. Eight bytes at a time.
    @inlinable @inline(__always)
    public mutating func skipPlainStringBytes() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while offset >= 0, count - offset >= 8 {
            let word = UInt64(littleEndian: loadWord(offset))
            // High bit set in each byte below 0x20, equal to '"' or '\', or >= 0x80.
            // Borrows can flag bytes above a true match, never below one, so the
            // lowest flagged byte is exactly the first byte that needs attention.
            let control = (word &- ones &* 0x20) & ~word
            let quoteBits = word ^ (ones &* 0x22)
            let quote = (quoteBits &- ones) & ~quoteBits
            let backslashBits = word ^ (ones &* 0x5C)
            let backslash = (backslashBits &- ones) & ~backslashBits
            let special = (control | quote | backslash | word) & highBits
            if special != 0 {
                offset += special.trailingZeroBitCount >> 3
                return
            }
            offset += 8
        }
        while offset >= 0, offset < count {
            let byte = load(offset)
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return }
            offset += 1
        }
    }

    /// Whether every byte in `range` is ASCII (below 0x80). Eight bytes at a time.
    @inlinable
    public func isASCII(_ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= count else { return false }
        var index = range.lowerBound
        while range.upperBound - index >= 8 {
            if loadWord(index) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < range.upperBound {
            if load(index) >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// The line feeds in `range` (clamped to the input): how many, and the offset just past
    /// the last one. Eight bytes at a time.
    public func lineFeeds(in range: Range<Int>) -> (count: Int, lastEnd: Int?) {
        let upper = Swift.min(range.upperBound, count)
        var index = Swift.max(0, range.lowerBound)
        var found = 0
        var lastEnd: Int?
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while upper - index >= 8 {
            let word = UInt64(littleEndian: loadWord(index)) ^ 0x0A0A_0A0A_0A0A_0A0A
            // Exactly the zero bytes of `word` (the line feeds) keep their high bit: no borrows.
            let zeros = ~(((word & low7) &+ low7) | word | low7)
            if zeros != 0 {
                found += zeros.nonzeroBitCount
                lastEnd = index + (63 - zeros.leadingZeroBitCount) / 8 + 1
            }
            index += 8
        }
        while index < upper {
            if load(index) == 0x0A {
                found += 1
                lastEnd = index + 1
            }
            index += 1
        }
        return (found, lastEnd)
    }

    /// The offset of the first `target` byte in `range` (clamped to the input), or
    /// `range.upperBound` when there is none: by the C library's `memchr` (vectorized on
    /// every platform Swift runs on), else eight bytes at a time.
    public func firstIndex(of target: UInt8, in range: Range<Int>) -> Int {
        let upper = Swift.min(range.upperBound, count)
        let lower = Swift.max(0, range.lowerBound)
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin) || canImport(ucrt) || canImport(WASILibc)
        guard lower < upper, let base = unsafe buffer.baseAddress else { return range.upperBound }
        guard let found = unsafe memchr(base + lower, Int32(target), upper - lower) else { return range.upperBound }
        return unsafe UnsafeRawPointer(found) - UnsafeRawPointer(base)
        #else
        var index = lower
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let pattern = 0x0101_0101_0101_0101 &* UInt64(target)
        while upper - index >= 8 {
            let word = UInt64(littleEndian: loadWord(index)) ^ pattern
            // Exactly the zero bytes of `word` (the matches) keep their high bit: no borrows.
            let zeros = ~(((word & low7) &+ low7) | word | low7)
            if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < upper {
            if load(index) == target { return index }
            index += 1
        }
        return range.upperBound
        #endif
    }

    /// The big-endian unsigned integer of `size` (1...8) bytes at `index`;
    /// 0 outside the input (callers check bounds first).
    @inlinable
    public func bigEndianInteger(at index: Int, size: Int) -> UInt64 {
        guard size >= 1, size <= 8, index >= 0, index <= count - size else { return 0 }
        var value: UInt64 = 0
        for position in index..<(index + size) { value = value << 8 | UInt64(load(position)) }
        return value
    }

    /// The offset of the first backslash in `range`, or `range.upperBound`.
    /// Eight bytes at a time.
    @inlinable
    public func firstBackslash(in range: Range<Int>) -> Int {
        guard range.lowerBound >= 0, range.upperBound <= count else { return range.upperBound }
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = range.lowerBound
        while range.upperBound - index >= 8 {
            let bits = UInt64(littleEndian: loadWord(index)) ^ (ones &* 0x5C)
            let found = (bits &- ones) & ~bits & (ones &* 0x80)
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < range.upperBound, load(index) != 0x5C { index += 1 }
        return index
    }

    /// The first (up to) eight bytes of `range`, zero-padded, little-endian:
    /// with the length, an exact fingerprint of short keys.
    @inlinable
    public func prefixWord(_ range: Range<Int>) -> UInt64 {
        guard range.lowerBound >= 0, range.upperBound <= count else { return 0 }
        let length = range.count
        if length >= 8 { return UInt64(littleEndian: loadWord(range.lowerBound)) }
        if count - range.lowerBound >= 8 {
            let word = UInt64(littleEndian: loadWord(range.lowerBound))
            return word & ((1 << (UInt64(length) * 8)) &- 1)
        }
        var word: UInt64 = 0
        for index in range.reversed() { word = word << 8 | UInt64(load(index)) }
        return word
    }

    /// Skips ASCII digits and returns how many.
    @inlinable @inline(__always)
    public mutating func skipDigits() -> Int {
        let start = offset
        while offset >= 0, offset < count, load(offset) &- 0x30 < 10 { offset += 1 }
        return offset - start
    }

    /// Length of the well-formed UTF-8 sequence at `index`, or 0.
    @inlinable
    public func utf8SequenceLength(at index: Int) -> Int {
        UTF8Sequence.length(
            lead: byte(at: index), byte(at: index + 1), byte(at: index + 2), byte(at: index + 3))
    }

    /// Whether `range` lies inside the input.
    @inline(__always)
    private func contains(_ range: Range<Int>) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= count
    }

    /// The bytes in `range` as a String (invalid UTF-8 becomes U+FFFD);
    /// empty if `range` is outside the input.
    public func string(_ range: Range<Int>) -> String {
        guard contains(range) else { return "" }
        return unsafe String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// Appends the bytes in `range` to `output` (nothing if outside the input).
    public func appendBytes(_ range: Range<Int>, to output: inout [UInt8]) {
        guard contains(range) else { return }
        unsafe output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[range]))
    }

    /// Whether two ranges of the input hold the same bytes.
    public func bytesEqual(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.count == rhs.count, contains(lhs), contains(rhs) else { return false }
        var index = 0
        let length = lhs.count
        while length - index >= 8 {
            if loadWord(lhs.lowerBound + index) != loadWord(rhs.lowerBound + index) { return false }
            index += 8
        }
        while index < length {
            if load(lhs.lowerBound + index) != load(rhs.lowerBound + index) { return false }
            index += 1
        }
        return true
    }
}

extension ByteScanner {
    /// Whether `range` of the input holds exactly the bytes of `other` (a key
    /// the decoder looks for): one bounds check, then eight bytes at a time.
    @inlinable
    public func bytesEqual(_ range: Range<Int>, _ other: Span<UInt8>) -> Bool {
        let length = other.count
        guard range.count == length, range.lowerBound >= 0, range.upperBound <= count else { return false }
        return unsafe other.withUnsafeBufferPointer { bytes in
            var index = 0
            while length - index >= 8 {
                let word = unsafe UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if loadWord(range.lowerBound + index) != word { return false }
                index += 8
            }
            while index < length {
                if unsafe load(range.lowerBound + index) != bytes[index] { return false }
                index += 1
            }
            return true
        }
    }
}

extension SourceText {
    /// Runs `body` with a scanner over these bytes, valid only inside `body`.
    @_spi(Scanning) public func withScanner<R>(_ body: (inout ByteScanner) -> R) -> R {
        switch storage {
        case .bytes(let bytes):
            return unsafe bytes.withUnsafeBufferPointer { buffer in
                var scanner = unsafe ByteScanner(buffer: buffer)
                return body(&scanner)
            }
        case .data(let data):
            return unsafe data.withUnsafeBytes { raw in
                var scanner = unsafe ByteScanner(buffer: raw.assumingMemoryBound(to: UInt8.self))
                return body(&scanner)
            }
        }
    }
}

extension Array {
    /// Moves the elements from `start` to the end into a new array, without
    /// copying (no retain/release per element), and shortens this array to
    /// `start` elements. `filler` briefly takes the moved elements' places;
    /// pass a value that is trivial to destroy. Out-of-range `start` moves nothing.
    @inlinable @_spi(Scanning)
    public mutating func movingTail(from start: Int, leaving filler: Element) -> [Element] {
        guard start >= 0, start < count else { return [] }
        let moved = count - start
        var tail = unsafe [Element](unsafeUninitializedCapacity: moved) { destination, initialized in
            initialized = 0
            unsafe withUnsafeMutableBufferPointer { source in
                guard let from = source.baseAddress, let to = destination.baseAddress else { return }
                unsafe to.moveInitialize(from: from + start, count: moved)
                unsafe (from + start).initialize(repeating: filler, count: moved)
                initialized = moved
            }
        }
        // Only if nothing could be moved (no storage), fall back to copying.
        if tail.isEmpty { tail = Array(self[start...]) }
        removeLast(moved)
        return tail
    }
}

/// A stack budget for recursion that input drives through code Vetted does
/// not own (a model's `init(from:)`, a class's `init(coder:)`): the decoder
/// asks ``hasRoom(atDepth:)`` before each level and fails with a
/// typed error instead of overflowing the stack. Depth limits count levels;
/// this counts bytes, whatever each level costs (debug builds and large
/// frames included).
///
/// The budget is measured from where the guard was made, so a call uses at
/// most that much stack below its caller, plus one level, on any platform and
/// thread. One guard serves one synchronous call on one thread.
@safe
package struct StackGuard {
    private let start: UInt
    private let budget: UInt

    /// A guard allowing `budget` bytes (``Limits/maxStackBytes``) below the caller.
    package init(budget: Int) {
        start = Self.currentAddress()
        self.budget = UInt(clamping: budget)
    }

    /// Levels that never ask: the check costs a call, and shallow input is the common case.
    package static let uncheckedLevels = 8

    /// What a decoder says when the budget runs out.
    package var exceededMessage: String {
        "deeper than decoding may recurse on the stack (\(budget / 1024) KiB, Limits.maxStackBytes)"
    }

    /// Whether a level at `depth` (the nesting of the value about to be
    /// decoded) stays within the budget.
    package func hasRoom(atDepth depth: Int) -> Bool {
        guard depth > Self.uncheckedLevels else { return true }
        let here = Self.currentAddress()
        // Stacks grow down on every platform Swift supports.
        return here >= start || start - here < budget
    }

    /// An address in the caller's frame.
    @inline(never)
    private static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return unsafe withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// A value of a generic type passed on as the generic type it is known to be.
///
/// Decoders read some types their own way (`Date`, arrays) inside functions
/// generic over `T`; `value as? T` there costs a lookup of `Optional<T>`'s
/// metadata on every call. This checks the types are the same and passes the
/// value on without the optional.
package enum SameType {
    package struct Mismatch: Error {}

    /// `value` as `T`, which must be `Value` itself.
    @inline(__always)
    package static func cast<Value, T>(_ value: Value, to type: T.Type) throws(Mismatch) -> T {
        guard Value.self == T.self else { throw Mismatch() }
        return unsafe unsafeBitCast(value, to: T.self)
    }

    /// An array of `Value` as an array of `Element`, which must be `Value` itself
    /// (compared as element types: no array metadata is looked up).
    @inline(__always)
    package static func cast<Value, Element>(_ value: [Value], toArrayOf type: Element.Type) throws(Mismatch) -> [Element] {
        guard Value.self == Element.self else { throw Mismatch() }
        return unsafe unsafeBitCast(value, to: [Element].self)
    }
}

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Untrusted input bytes, held by reference (no copy), so that errors can
/// compute line, column and excerpt lazily.
public struct SourceText: Sendable {
    enum Storage: Sendable {
        case bytes([UInt8])
        case data(Data)
    }

    let storage: Storage

    public init(_ bytes: [UInt8]) { storage = .bytes(bytes) }
    public init(_ data: Data) { storage = .data(data) }
    public init(_ string: String) { storage = .bytes(Array(string.utf8)) }

    /// Number of bytes.
    public var count: Int {
        switch storage {
        case .bytes(let bytes): bytes.count
        case .data(let data): data.count
        }
    }

    /// The byte at `offset`, or `nil` outside the input. For slow paths only.
    public func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        switch storage {
        case .bytes(let bytes): return bytes[offset]
        case .data(let data): return data[data.startIndex + offset]
        }
    }

    /// A copy of the bytes in `range`, clamped to the input. For slow paths only.
    public func bytes(in range: Range<Int>) -> [UInt8] {
        let lower = Swift.max(0, Swift.min(range.lowerBound, count))
        let upper = Swift.max(lower, Swift.min(range.upperBound, count))
        switch storage {
        case .bytes(let bytes): return Array(bytes[lower..<upper])
        case .data(let data): return Array(data[(data.startIndex + lower)..<(data.startIndex + upper)])
        }
    }

    /// 1-based line and column (in bytes) of `offset`; an offset past the end
    /// is placed just after the last byte.
    public func location(of offset: Int) -> LineColumn {
        // One offset (an error's, as a refused request reports it): counted without the arrays `locations(of:)` sorts.
        let end = Swift.max(0, Swift.min(offset, count))
        return withScanner { scanner in
            let feeds = scanner.lineFeeds(in: 0..<end)
            return LineColumn(line: 1 + feeds.count, column: end - (feeds.lastEnd ?? 0) + 1)
        }
    }

    /// The line and column of each offset, in one pass over the bytes up to the last of them.
    public func locations(of offsets: [Int]) -> [LineColumn] {
        let ends = offsets.map { Swift.max(0, Swift.min($0, count)) }
        let order = ends.indices.sorted { ends[$0] < ends[$1] }
        var result = Array(repeating: LineColumn(line: 1, column: 1), count: ends.count)
        withScanner { scanner in
            var line = 1, lineStart = 0, position = 0
            for index in order {
                let end = ends[index]
                let feeds = scanner.lineFeeds(in: position..<end)
                line += feeds.count
                if let lastEnd = feeds.lastEnd { lineStart = lastEnd }
                position = Swift.max(position, end)
                result[index] = LineColumn(line: line, column: end - lineStart + 1)
            }
        }
        return result
    }

    /// The escaped, capped excerpt of the line around `offset`.
    public func excerpt(at offset: Int) -> Excerpt {
        let at = Swift.max(0, Swift.min(offset, count))
        // The bytes an excerpt can show, copied once.
        let low = Swift.max(0, at - Excerpt.contextBytes)
        let window = bytes(in: low..<Swift.min(count, at + Excerpt.maximumBytes))
        let middle = at - low
        let breaks: (UInt8) -> Bool = { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        // Up to `Excerpt.contextBytes` bytes before the offset, not crossing a line break.
        var start = middle
        while start > 0, !breaks(window[start - 1]) { start -= 1 }
        // Don't start inside a UTF-8 sequence.
        while start < middle, window[start] & 0xC0 == 0x80 { start += 1 }
        // Up to `Excerpt.maximumBytes` after it, to the end of its line.
        var end = middle
        while end < window.count, !breaks(window[end]) { end += 1 }
        return Excerpt(before: Array(window[start..<middle]), after: Array(window[middle..<end]))
    }
}

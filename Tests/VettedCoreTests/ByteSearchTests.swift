import Testing
@_spi(Scanning) import VettedCore
import VettedTestSupport

/// `ByteScanner.firstIndex(of:in:)` (the C library's `memchr` where there is one) finds what a
/// byte-by-byte search of the range, clamped to the input, finds; `range.upperBound` when
/// there is nothing, whatever the range.
@Suite struct ByteSearchTests {
    /// The search spelled out: the first `target` in `range` clamped to `0..<count`.
    static func naive(_ bytes: [UInt8], _ target: UInt8, _ range: Range<Int>) -> Int {
        let lower = Swift.max(0, range.lowerBound)
        let upper = Swift.min(range.upperBound, bytes.count)
        guard lower < upper else { return range.upperBound }
        return bytes[lower..<upper].firstIndex(of: target) ?? range.upperBound
    }

    @Test func edgesOfTheInput() {
        let bytes: [UInt8] = Array("ab\ncd\n".utf8)
        SourceText(bytes).withScanner { scanner in
            #expect(scanner.firstIndex(of: 0x0A, in: 0..<6) == 2)
            #expect(scanner.firstIndex(of: 0x0A, in: 3..<6) == 5)
            #expect(scanner.firstIndex(of: 0x0A, in: 3..<5) == 5)
            #expect(scanner.firstIndex(of: 0x0A, in: 6..<6) == 6)
            #expect(scanner.firstIndex(of: 0x0A, in: -4..<2) == 2)
            #expect(scanner.firstIndex(of: 0x0A, in: 4..<100) == 5)
            #expect(scanner.firstIndex(of: UInt8(ascii: "z"), in: 0..<100) == 100)
            #expect(scanner.firstIndex(of: UInt8(ascii: "a"), in: 9..<12) == 12)
        }
        SourceText([UInt8]()).withScanner { scanner in
            #expect(scanner.firstIndex(of: 0, in: 0..<0) == 0)
            #expect(scanner.firstIndex(of: 0, in: 0..<8) == 8)
        }
    }

    @Test func agreesWithAByteByByteSearch() {
        let seed = SeededGenerator.seed(for: "ByteSearchTests.agreesWithAByteByByteSearch")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let count = generator.below(300)
            // Few distinct bytes, so that the target is sometimes near, sometimes absent.
            let bytes = (0..<count).map { _ in UInt8(generator.below(6)) }
            let target = UInt8(generator.below(7))
            let lower = generator.below(count + 20) - 10
            let upper = lower + generator.below(count + 20)
            let found = SourceText(bytes).withScanner { scanner in scanner.firstIndex(of: target, in: lower..<upper) }
            let expected = Self.naive(bytes, target, lower..<upper)
            #expect(found == expected, "seed \(seed): \(bytes) target \(target) range \(lower)..<\(upper)")
            if found != expected { return }
        }
    }
}

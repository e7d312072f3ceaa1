import Testing
@testable import VettedCore
import VettedTestSupport

@Suite struct ExcerptTests {
    @Test func escapesControlBidiBackslashAndInvalidUTF8() {
        let excerpt = Excerpt(before: [], after: [0x61, 0x0A, 0x1B, 0x5C, 0xFF] + Array("\u{202E}z".utf8))
        #expect(excerpt.text == #"a\n\u{1B}\\\xFF\u{202E}z"#)
        #expect(excerpt.caret == 0)
    }

    @Test func neverExceedsMaximumBytes() {
        for length in [0, 1, 39, 40, 41, 200] {
            let excerpt = Excerpt(before: Array(repeating: 0x07, count: length), after: Array(repeating: 0xFF, count: length))
            #expect(excerpt.text.utf8.count <= Excerpt.maximumBytes, "length \(length)")
        }
        #expect(Excerpt.escape(String(repeating: "é", count: 100)).utf8.count <= Excerpt.maximumBytes)
    }

    @Test func cutsAreMarkedAndWholeCharactersKept() {
        let text = Excerpt.escape(String(repeating: "é", count: 100))
        #expect(text.hasSuffix("…"))
        #expect(text.dropLast().allSatisfy { $0 == "é" })
    }

    @Test func caretPointsAtTheOffsetAfterEscapedContext() {
        let source = SourceText("{\"a\":\t@}")
        let excerpt = source.excerpt(at: 6)
        #expect(excerpt.text == #"{"a":\t@}"#)
        #expect(excerpt.caret == 7)
        #expect(Array(excerpt.text)[excerpt.caret] == "@")
    }

    @Test func contextStopsAtLineBreaks() {
        let source = SourceText("first line\nsecond @ line")
        let excerpt = source.excerpt(at: 18)
        #expect(excerpt.text == "second @ line")
        #expect(excerpt.caret == 7)
    }
}

@Suite struct DocumentPathTests {
    @Test(arguments: [
        (DocumentPath(), "$"),
        ([.index(3), .key("tags"), .index(1)], "$[3].tags[1]"),
        ([.key("odd key")], #"$["odd key"]"#),
        ([.key("say \"hi\"\n")], #"$["say \"hi\"\n"]"#),
        ([.key("9lives")], #"$["9lives"]"#),
        ([.key("")], #"$[""]"#),
    ] as [(DocumentPath, String)])
    func printsLikeJSONPath(path: DocumentPath, expected: String) {
        #expect(path.description == expected)
    }
}

extension DocumentPathTests {
    /// A plain key is its own step; any other is escaped and capped, then `~` and `/` escaped.
    @Test(arguments: [
        ([.key("tags"), .index(1)], "/tags/1"),
        ([.key("a/b~c")], "/a~1b~0c"),
        ([.key("say \"hi\"\n")], #"/say "hi"\n"#),
        ([.key(#"a\b"#)], #"/a\\b"#),
        ([.key("")], "/"),
        ([.key(String(repeating: "k", count: 40))], "/" + String(repeating: "k", count: 40)),
        ([.key(String(repeating: "k", count: 41))], "/" + String(repeating: "k", count: 37) + "…"),
        ([.key(String(repeating: "/", count: 41))], "/" + String(repeating: "~1", count: 37) + "…"),
    ] as [(DocumentPath, String)])
    func printsAsAJSONPointer(path: DocumentPath, expected: String) {
        #expect(path.jsonPointer == expected)
    }
}

@Suite struct VettedErrorTests {
    /// An error built in its source cuts its excerpt when asked: the same text as cutting it
    /// at once, kept when the source is dropped, and replaced by one given later.
    @Test func anExcerptCutWhenAskedIsTheOneCutAtOnce() {
        let source = SourceText("{\n  \"name\": \"\u{202E}x\",\n  \"name\": 2}")
        let error = VettedError(.duplicateKey, at: 23, in: source)
        #expect(error.excerpt == source.excerpt(at: 23))
        #expect(error.droppingSource().excerpt == source.excerpt(at: 23))
        #expect(error.droppingSource().source == nil)
        var replaced = error
        replaced.excerpt = Excerpt(text: "given", caret: 0)
        #expect(replaced.excerpt?.text == "given")
        replaced.excerpt = nil
        #expect(replaced.excerpt == nil)
        #expect(VettedError(code: .duplicateKey, offset: 23, source: source).excerpt == nil)
    }

    /// Printable ASCII short enough is returned as it is; anything else goes the long way.
    @Test func escapingPlainTextChangesNothingAndTheRestIsEscaped() {
        #expect(Excerpt.escape("#/properties/tags/uniqueItems", maximumBytes: 200) == "#/properties/tags/uniqueItems")
        #expect(Excerpt.escape(#"say "hi""#) == #"say \"hi\""#)
        #expect(Excerpt.escape(#"say "hi""#, quotes: false) == #"say "hi""#)
        #expect(Excerpt.escape(String(repeating: "a", count: 41)) == String(repeating: "a", count: 37) + "…")
        #expect(Excerpt.escape(String(repeating: "a", count: 40)) == String(repeating: "a", count: 40))
    }

    @Test func lineAndColumnAreComputedFromTheSource() {
        let error = VettedError(.duplicateKey, at: 14, in: SourceText("{\n  \"a\": 1,\n  \"a\": 2}"))
        #expect(error.location == LineColumn(line: 3, column: 3))
        #expect(error.droppingSource().location == nil)
    }

    /// Line feeds are counted eight bytes at a time: every offset of texts with line feeds at
    /// every place in a word, counted in one pass, agrees with counting byte by byte.
    @Test func locationsInOnePassAgreeWithCountingByteByByte() {
        for length in 0...40 {
            for period in 1...9 {
                let bytes = (0..<length).map { $0 % period == period - 1 ? UInt8(ascii: "\n") : UInt8(ascii: "a") + UInt8($0 % 26) }
                let offsets = Array((0...(length + 2)).reversed())
                var expected: [LineColumn] = []
                for offset in offsets {
                    let end = min(offset, length)
                    let feeds = bytes[..<end].indices.filter { bytes[$0] == UInt8(ascii: "\n") }
                    expected.append(LineColumn(line: feeds.count + 1, column: end - (feeds.last.map { $0 + 1 } ?? 0) + 1))
                }
                #expect(SourceText(bytes).locations(of: offsets) == expected, "length \(length), a line feed every \(period) bytes")
                #expect(SourceText(bytes).location(of: length / 2) == expected[offsets.firstIndex(of: length / 2) ?? 0])
            }
        }
        let error = VettedError(.duplicateKey, at: 14, in: SourceText("{\n  \"a\": 1,\n  \"a\": 2}"))
        #expect(error.located(at: LineColumn(line: 3, column: 3)).location == error.location)
    }

    @Test func equalityIsCodeOffsetAndPath() {
        let a = VettedError(code: .duplicateKey, offset: 4, path: [.key("a")], message: "one")
        let b = VettedError(code: .duplicateKey, offset: 4, path: [.key("a")], message: "two")
        #expect(a == b)
        #expect(a != VettedError(code: .duplicateKey, offset: 5, path: [.key("a")]))
        #expect(a != VettedError(code: .trailingComma, offset: 4, path: [.key("a")]))
    }

    @Test func descriptionSaysWhatAndWhere() {
        let error = VettedError(.trailingComma, at: 5, in: SourceText("[1,2,]"), path: [.index(1)], message: "trailing comma")
        #expect(error.description == "trailingComma (at $[1], line 1, column 6, offset 5): trailing comma")
    }

    @Test func codesAreExtensible() {
        let custom: VettedError.Code = "signatureMismatch"
        #expect(custom.rawValue == "signatureMismatch")
        #expect(VettedError(code: custom).message == "signatureMismatch")
    }

    @Test func depthIsClampedToTheCeiling() {
        #expect(Limits(maxDepth: .max).effectiveMaxDepth == Limits.depthCeiling)
        #expect(Limits(maxDepth: -3).effectiveMaxDepth == 0)
    }

    /// A long string is escaped only as far as the cut: the result is that of escaping it whole.
    @Test func escapingReadsOnlyWhatItCanShow() {
        let long = String(repeating: "a", count: 5_000_000)
        #expect(Excerpt.escape(long, maximumBytes: 120) == String(repeating: "a", count: 117) + "…")
        for length in 0...130 {
            for unit in ["a", "é", "\u{1B}", "😀"] {
                let text = String(repeating: unit, count: length)
                let whole = Excerpt.escape(text, maximumBytes: .max)
                let cut = Excerpt.escape(text, maximumBytes: 40)
                #expect(whole.utf8.count <= 40 ? cut == whole : cut.hasSuffix("…") && whole.hasPrefix(String(cut.dropLast())), "\(length) × \(unit)")
            }
        }
    }

    /// Printable ASCII takes a path without a string per byte; it must cut and mark exactly as the piece-by-piece path does.
    @Test func plainASCIIIsCutAsThePiecesAre() {
        let printable = (0x20...0x7E).map { UInt8($0) }
        var generator = SeededGenerator(seed: 0x5EED_E5C)
        print("plainASCIIIsCutAsThePiecesAre: seed 0x5EED_E5C")
        for length in 0...60 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in printable[Int.random(in: 0..<printable.count, using: &generator)] }
                let string = String(decoding: bytes, as: UTF8.self)
                for quotes in [false, true] {
                    for maximum in [0, 3, 4, 12, 40] {
                        let window = Array(bytes.prefix(maximum + 4))
                        let expected = Excerpt.capped(Excerpt.pieces(of: window, escapingQuotes: quotes), maximumBytes: maximum)
                        #expect(Excerpt.escape(string, maximumBytes: maximum, quotes: quotes) == expected, "\(string) \(maximum) \(quotes)")
                    }
                }
                let split = bytes.count / 2
                let before = Array(bytes[..<split])
                let after = Array(bytes[split...])
                let excerpt = Excerpt(before: before, after: after)
                var prefix = Excerpt.pieces(of: before)
                while prefix.reduce(0, { $0 + $1.utf8.count }) > Excerpt.maximumBytes / 3 { prefix.removeFirst() }
                let expected = prefix.joined() + Excerpt.capped(Excerpt.pieces(of: after), maximumBytes: Excerpt.maximumBytes - prefix.joined().utf8.count)
                #expect(excerpt.text == expected, "\(string)")
                #expect(excerpt.caret == prefix.joined().count)
            }
        }
    }
}

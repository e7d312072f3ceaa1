import Testing
import VettedJSON
import VettedTestSupport

/// What the writer prints cannot act on a terminal or hide text, and still reads back equal.
@Suite struct WriterEscapeTests {
    @Test func controlsBidiAndInvisibleCharactersAreEscaped() throws {
        let text = "a\u{1B}[2J\u{7F}\u{85}\u{202E}\u{2066}\u{200B}\u{FEFF}\u{E0001}\u{FFFE}\u{2028}b"
        let written = JSONValue.string(text).jsonString()
        #expect(
            written == #""a\u001b[2J\u007f\u0085\u202e\u2066\u200b\ufeff\udb40\udc01\ufffe\u2028b""#)
        #expect(try JSONParser().parse(written) == .string(text))
    }

    @Test func printableTextStaysAsItIs() throws {
        let text = "Café — 東京 🏠 👩‍👩‍👧 \u{0301}e"
        let written = JSONValue.string(text).jsonString()
        #expect(written == "\"" + text + "\"")
        #expect(try JSONParser().parse(written) == .string(text))
    }

    /// Text that stays between escapes is copied in runs: pieces whose written form is known,
    /// joined at random, are written as their forms joined, and read back equal.
    @Test func escapesBetweenRunsOfTextThatStays() throws {
        let pieces: [(text: String, written: String)] = [
            ("plain words ", "plain words "), ("é", "é"), ("東京", "東京"), ("👩‍👩‍👧", "👩‍👩‍👧"), ("\u{0301}", "\u{0301}"),
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\r", #"\r"#), ("\t", #"\t"#), ("\u{8}", #"\b"#), ("\u{C}", #"\f"#),
            ("\u{1}", #"\u0001"#), ("\u{7F}", #"\u007f"#), ("\u{85}", #"\u0085"#), ("\u{202E}", #"\u202e"#),
            ("\u{2028}", #"\u2028"#), ("\u{2029}", #"\u2029"#), ("\u{FEFF}", #"\ufeff"#), ("\u{E0001}", #"\udb40\udc01"#),
        ]
        let seed = SeededGenerator.seed(for: "WriterEscapeTests.escapesBetweenRunsOfTextThatStays")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<500 {
            var text = ""
            var written = "\""
            for _ in 0..<generator.below(12) {
                let piece = pieces[generator.below(pieces.count)]
                text += piece.text
                written += piece.written
            }
            written += "\""
            #expect(JSONValue.string(text).jsonString() == written, "seed \(seed)")
            #expect(try JSONParser().parse(JSONValue.string(text).jsonString()) == .string(text), "seed \(seed)")
        }
    }
}

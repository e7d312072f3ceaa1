import Testing
import VettedJSON

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
}

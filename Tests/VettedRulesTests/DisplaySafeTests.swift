import Testing
import VettedCore
import VettedRules

/// Text safe to show: every character class the rule refuses, with its code and position.
@Suite struct DisplaySafeTests {
    let rule = Rule<String>.displaySafe()

    static func utf8(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func plainTextPasses() {
        for text in ["Lamp", "Guitare d'occasion — très bien", "日本語のテキスト", "Emoji 🏠 ✓", "", "tab-free"] {
            #expect(rule.check(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("Lamp\u{1B}[2J", VettedError.Code.controlCharacter, "U+001B at scalar 4"),  // clear screen
        ("Lamp\u{1B}]0;pwned\u{07}", .controlCharacter, "U+001B at scalar 4"),  // set title
        ("a\u{0}b", .nulCharacter, "U+0000 at scalar 1"),
        ("a\u{85}b", .controlCharacter, "U+0085 at scalar 1"),  // C1 next line
        ("a\u{7F}", .controlCharacter, "U+007F at scalar 1"),
        ("tab\there", .controlCharacter, "U+0009 at scalar 3"),
        ("line\nbreak", .controlCharacter, "U+000A at scalar 4"),
        ("abc\u{202E}fed", .bidiControl, "U+202E at scalar 3"),  // right-to-left override
        ("\u{2066}isolate\u{2069}", .bidiControl, "U+2066 at scalar 0"),
        ("mark\u{200F}", .bidiControl, "U+200F at scalar 4"),
        ("arabic\u{061C}", .bidiControl, "U+061C at scalar 6"),
        ("zero\u{200B}width", .invisibleCharacter, "U+200B at scalar 4"),
        ("join\u{200D}er", .invisibleCharacter, "U+200D at scalar 4"),
        ("\u{FEFF}bom", .invisibleCharacter, "U+FEFF at scalar 0"),
        ("soft\u{AD}hyphen", .invisibleCharacter, "U+00AD at scalar 4"),
        ("tag\u{E0041}", .invisibleCharacter, "U+E0041 at scalar 3"),  // language tag character
        ("non" + Self.utf8([0xEF, 0xB7, 0x90]) + "char", .nonCharacter, "U+FDD0 at scalar 3"),  // Swift literals refuse noncharacters
        ("end" + Self.utf8([0xEF, 0xBF, 0xBE]), .nonCharacter, "U+FFFE at scalar 3"),
    ] as [(String, VettedError.Code, String)])
    func refusedWithItsCodeAndPosition(text: String, code: VettedError.Code, where place: String) {
        let violation = rule.check(text)
        #expect(violation?.code == code)
        #expect(violation?.message == "must be safe to display: \(place)")
    }

    @Test func allowancesLetTheirCharactersThrough() {
        let lenient = Rule<String>.displaySafe(allowing: [.tab, .newlines, .joiners])
        #expect(lenient.check("a\tb\nc\r\n") == nil)
        #expect(lenient.check("👨\u{200D}👩\u{200D}👧") == nil)
        #expect(lenient.check("a\u{1B}b")?.code == .controlCharacter)
        #expect(lenient.check("a\u{202E}b")?.code == .bidiControl)
        #expect(Rule<String>.displaySafe().check("👨\u{200D}👩")?.code == .invisibleCharacter)
    }

    /// The message never carries the text itself.
    @Test func messagesNeverQuoteTheText() {
        let violation = rule.check("secret-token\u{1B}")
        #expect(violation?.message.contains("secret") == false)
    }
}

@Suite struct DisplaySafeFastPathTests {
    /// The ranges answered without a property lookup give, on every scalar and
    /// every allowance, what the properties give.
    @Test func theFastPathAgreesWithThePropertiesOnEveryScalar() {
        let allowances: [DisplayTextAllowance] = [[], [.tab, .newlines, .joiners]]
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for allowance in allowances where unsafeDisplayCode(scalar, allowance) != unsafeDisplayCodeByProperties(scalar, allowance) {
                disagreements.append(String(value, radix: 16))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// The rule reads scalars straight from the UTF-8 bytes: on every scalar, between
    /// printable ASCII and after a two-byte one, it refuses exactly what the properties
    /// refuse, at the scalar's position.
    @Test func theRuleAgreesWithThePropertiesOnEveryScalar() {
        let allowances: [DisplayTextAllowance] = [[], [.tab, .newlines, .joiners]]
        var disagreements: [String] = []
        for allowance in allowances {
            let rule = Rule<String>.displaySafe(allowing: allowance)
            for value in UInt32(0)...0x10FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let violation = rule.check("aé" + String(Character(scalar)) + "z")
                let expected = unsafeDisplayCodeByProperties(scalar, allowance)
                if violation?.code != expected || (expected != nil && violation?.message.hasSuffix("at scalar 2") != true) {
                    disagreements.append(String(value, radix: 16))
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// One classifier: an excerpt escapes exactly the scalars the rule refuses
    /// (and `\\`, `"`), over the Basic Multilingual Plane, the emoji plane and the tags' plane.
    @Test func excerptsEscapeWhatTheRuleRefuses() {
        var disagreements: [String] = []
        for plane in [0x0000...0xFFFF, 0x1_F000...0x1_FFFF, 0xE_0000...0xE_FFFF] {
            for value in plane {
                guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
                let text = String(Character(scalar))
                let escaped = Excerpt.escape(text) != text
                let refused = unsafeDisplayCode(scalar, []) != nil || scalar == "\\" || scalar == "\""
                if escaped != refused { disagreements.append("U+" + String(value, radix: 16, uppercase: true)) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(Excerpt.escape("a\u{2028}b") == "a\\u{2028}b")
        #expect(unsafeDisplayCode("\u{2028}", [.newlines]) == .controlCharacter)
    }
}

import Foundation
import Testing
import VettedCore
@testable import VettedRules

/// Rules that describe themselves, and violations that carry their parameters.
@Suite struct RuleDescriptorTests {
    @Test func builtInRulesSayWhatTheyCheck() {
        #expect(Rule<Int>.range(1...5).descriptors == [RuleDescriptor("range", ["minimum": .integer(1), "maximum": .integer(5)])])
        #expect(Rule<Double>.range(0.5...2).descriptors == [RuleDescriptor("range", ["minimum": .number(0.5), "maximum": .number(2)])])
        #expect(Rule<Int>.atLeast(3).descriptors == [RuleDescriptor("range", ["minimum": .integer(3)])])
        #expect(
            Rule<String>.length(1...200).descriptors
                == [RuleDescriptor("length", ["unit": .string("characters"), "minimum": .integer(1), "maximum": .integer(200)])])
        #expect(Rule<String>.scalarLength(2...8).descriptors.first?.parameters["unit"] == .string("unicodeScalars"))
        #expect(Rule<String>.utf8Length(0...6).descriptors.first?.parameters["unit"] == .string("utf8Bytes"))
        #expect(Rule<String>.oneOf(["b", "a"]).descriptors == [RuleDescriptor("oneOf", ["allowed": .list([.string("a"), .string("b")])])])
        #expect(
            Rule<String>.pattern("[a-z]+", maximumLength: 32).descriptors
                == [RuleDescriptor("pattern", ["pattern": .string("[a-z]+"), "maximumLength": .integer(32)])])
        #expect(Rule<String>.displaySafe(allowing: [.tab, .joiners]).descriptors == [RuleDescriptor("displaySafe", ["allowing": .list([.string("tab"), .string("joiners")])])])
        #expect(Rule<[Int]>.count(1...10).descriptors == [RuleDescriptor("count", ["minimum": .integer(1), "maximum": .integer(10)])])
        #expect(Rule<[Int]>.unique.descriptors == [RuleDescriptor("unique")])
        #expect(
            Rule<[String]>.each(.nonBlank).descriptors == [RuleDescriptor("each", element: [RuleDescriptor("nonBlank")])])
        let policy = URLPolicy(schemes: ["https"], hosts: [.exact("example.com"), .includingSubdomains("cdn.example.com")], maximumLength: 50)
        let url = Rule<String>.url(policy).descriptors.first
        #expect(url?.kind == "url")
        #expect(url?.parameters["hosts"] == .list([.string("example.com")]))
        #expect(url?.parameters["hostsIncludingSubdomains"] == .list([.string("cdn.example.com")]))
        #expect(url?.parameters["maximumLength"] == .integer(50))
        let earliest = Date(timeIntervalSince1970: 0)
        #expect(Rule<Date>.within(notBefore: earliest).descriptors.first?.parameters["notBefore"] == .string("1970-01-01T00:00:00.000Z"))
    }

    @Test func bothSidesOfAnAndAreDescribed() {
        let rule: Rule<String> = .length(1...5) && .nonBlank
        #expect(rule.descriptors.map(\.kind) == ["length", "nonBlank"])
    }

    /// A closure says nothing of itself: never guessed.
    @Test func closuresAreUndescribedAndCustomRulesMayDescribeThemselves() {
        let closure = Rule<Int> { $0 > 0 ? nil : RuleViolation(.outOfRange, "must be positive") }
        #expect(closure.descriptors == [RuleDescriptor(RuleDescriptor.undescribedKind)])
        #expect(!closure.descriptors[0].isDescribed)
        let custom = Rule<Int>.custom(VettedError.Code("odd"), "must be even") { $0 % 2 == 0 }
        #expect(custom.descriptors == [RuleDescriptor(RuleDescriptor.undescribedKind, ["code": .string("odd")])])
        let described = Rule<Int>.custom(
            VettedError.Code("odd"), "must be even", describedAs: RuleDescriptor("multipleOf", ["factor": .integer(2)])
        ) { $0 % 2 == 0 }
        #expect(described.descriptors.first?.isDescribed == true)
        #expect(described.check(3) == RuleViolation(VettedError.Code("odd"), "must be even", value: 3, parameters: ["factor": .integer(2)]))
        #expect(!Rule<[Int]>.each(closure).descriptors[0].isDescribed)
        #expect(Rule<String>.pattern("[a-").descriptors.first?.kind == RuleDescriptor.misdeclaredKind)
    }

    @Test func violationsCarryTheirParameters() {
        #expect(Rule<Int>.range(1...5).check(9)?.parameters == ["minimum": .integer(1), "maximum": .integer(5)])
        #expect(
            Rule<String>.length(1...3).check("abcd")?.parameters
                == ["unit": .string("characters"), "minimum": .integer(1), "maximum": .integer(3)])
        #expect(Rule<String>.oneOf(["a"]).check("b")?.parameters == ["allowed": .list([.string("a")])])
        #expect(Rule<String>.pattern("[a-z]+").check("1")?.parameters == ["pattern": .string("[a-z]+")])
        #expect(Rule<[Int]>.unique.check([1, 2, 1])?.parameters == ["index": .integer(2)])
        let unsafe = Rule<String>.displaySafe().check("ab\u{202E}c")
        #expect(unsafe?.code == .bidiControl)
        #expect(unsafe?.parameters == ["codePoint": .string("U+202E"), "position": .integer(2)])
        // `.each` keeps the element's parameters, one step down.
        let each = Rule<[String]>.each(.length(1...2)).check(["a", "abc"])
        #expect(each?.path == DocumentPath([.index(1)]))
        #expect(each?.parameters["maximum"] == .integer(2))
        let policy = URLPolicy(schemes: ["https"], hosts: [.exact("example.com")])
        #expect(Rule<String>.url(policy).check("http://example.com/")?.parameters == ["schemes": .list([.string("https")])])
        #expect(Rule<String>.url(policy).check("https://evil.test/")?.parameters["hosts"] == .list([.string("example.com")]))
        // Into the shared error.
        let error = Rule<Int>.range(1...5).check(0)?.error(at: DocumentPath([.key("id")]))
        #expect(error?.parameters == ["minimum": .integer(1), "maximum": .integer(5)])
    }

    /// `.scalarLength` counts Unicode scalars: "é" written as e + U+0301 is two.
    @Test func scalarLengthCountsUnicodeScalars() {
        let rule = Rule<String>.scalarLength(2...3)
        #expect(rule.check("e\u{301}") == nil)
        #expect(rule.check("é")?.code == .tooShort)
        #expect(rule.check("e\u{301}e\u{301}")?.code == .tooLong)
        #expect(rule.check("")?.code == .empty)
        #expect(Rule<String>.scalarLength(0...Int.max).check(String(repeating: "x", count: 10_000)) == nil)
    }

    /// The pattern as JSON Schema's keyword: rendered from the parsed pattern, anchored, in the
    /// syntax Vetted and ECMA-262 share (plain groups, explicit classes, characters as themselves).
    @Test(arguments: [
        ("[0-9]+(\\.[0-9]{1,2})?", #"^([0-9]+(\.[0-9]{1,2})?)$"#),
        ("a|b", "^(a|b)$"),
        ("x(a|b)", "^(x(a|b))$"),
        ("\\d\\w\\s", "^([0-9][0-9A-Z_a-z][\t-\r ])$"),
        (".x*", #"^([\s\S]x*)$"#),
        ("[^a-c\\]]", #"^([^a-c\]])$"#),
        ("a{2,}b{3}", "^(a{2,}b{3})$"),
        ("^ab$", "^(ab)$"),
        ("é😀", "^(é😀)$"),
        ("\\.\\}\\/-", #"^(\.\}\/-)$"#),
        ("", "^()$"),
    ])
    func patternsAsECMAScript(source: String, expected: String) throws {
        #expect(try LinearPattern(source).ecmaSource == expected)
    }

    /// The written pattern is one Vetted reads too, and matches what the source matches.
    @Test func theWrittenPatternMatchesWhatTheSourceMatches() throws {
        let samples = ["", "a", "b", "ab", "x", "12", "12.5", "12.345", " ", "\t", "é", "😀", "a-b", "_", "Z9", "a\nb", "-", "]", "\\"]
        for source in ["[0-9]+(\\.[0-9]{1,2})?", "a|b", "\\d\\w\\s", ".x*", "[^a-c\\]]", "[\\S]+", "[^\\D]*", "\\W?.", "(a|b)*c?", "[\\]\\\\-]+", "\\s*"] {
            let original = try LinearPattern(source)
            let written = try LinearPattern(try #require(original.ecmaSource))
            for sample in samples {
                #expect(written.matches(sample) == original.matches(sample), "\(source) as \(written.source) on \(sample.debugDescription)")
            }
        }
    }

    /// Regression: a negated shorthand inside a class (`[\S]`) added nothing, so it matched nothing.
    @Test func negatedShorthandInsideAClass() throws {
        let nonSpace = try LinearPattern("[\\S]+")
        #expect(nonSpace.matches("ab") && !nonSpace.matches("a b"))
        let digits = try LinearPattern("[^\\D]+")
        #expect(digits.matches("123") && !digits.matches("12a"))
        #expect(try LinearPattern("[\\W\\w]").matches("😀"))
    }

    @Test func parametersRoundTripThroughJSON() throws {
        let parameters: [String: RuleParameter] = [
            "minimum": .integer(1), "ratio": .number(2.5), "unit": .string("characters"), "any": .bool(true),
            "allowed": .list([.string("a"), .integer(2)]),
        ]
        let data = try JSONEncoder().encode(parameters)
        #expect(try JSONDecoder().decode([String: RuleParameter].self, from: data) == parameters)
    }
}

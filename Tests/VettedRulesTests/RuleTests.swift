import Foundation
import Testing
import VettedCore
import VettedRules
import VettedTestSupport

@Suite struct BasicRuleTests {
    @Test func numericRange() {
        let id: Rule<Int> = .range(1...Int(Int32.max))
        #expect(id.check(1) == nil)
        #expect(id.check(Int(Int32.max)) == nil)
        #expect(id.check(-1)?.code == .outOfRange)
        #expect(id.check(1 << 40)?.code == .outOfRange)
        #expect(Rule<Decimal>.atLeast(0).check(Decimal(-0.01))?.code == .outOfRange)
    }

    /// `.range(1...)` and `.range(...100)` are the spellings a Swift developer tries first:
    /// the same rules as `.atLeast(1)` and `.atMost(100)`.
    @Test func rangesOpenOnOneSide() {
        let id: Rule<Int> = .range(1...)
        #expect(id.check(1) == nil && id.check(Int.max) == nil)
        #expect(id.check(0).map { "\($0.code) \($0.message)" } == "outOfRange must be at least 1")
        let share: Rule<Double> = .range(...100)
        #expect(share.check(-5) == nil && share.check(100) == nil)
        #expect(share.check(100.5).map { "\($0.code) \($0.message)" } == "outOfRange must be at most 100.0")
        #expect(Rule<Int>.range(1...).descriptors == Rule<Int>.atLeast(1).descriptors)
        #expect(Rule<Int>.range(...9).descriptors == [RuleDescriptor("range", ["maximum": .integer(9)])])
    }

    @Test func lengthInCharactersAndInBytes() {
        let name: Rule<String> = .length(1...5)
        #expect(name.check("héllo") == nil)  // 5 characters
        #expect(name.check("👩‍👩‍👧‍👦") == nil)  // one character, 25 bytes
        #expect(name.check("")?.code == .empty)
        #expect(name.check("toolong")?.code == .tooLong)
        #expect(Rule<String>.length(3...5).check("ab")?.code == .tooShort)
        #expect(Rule<String>.utf8Length(1...5).check("héllo")?.code == .tooLong)  // 6 bytes
    }

    @Test func nonBlankAndOneOf() {
        #expect(Rule<String>.nonBlank.check(" \t\n")?.code == .empty)
        #expect(Rule<String>.nonBlank.check(" x ") == nil)
        let tag: Rule<String> = .oneOf(["music", "books"])
        #expect(tag.check("music") == nil)
        #expect(tag.check("Music")?.code == .notAllowed)
    }

    @Test func collections() {
        let tags: Rule<[String]> = .count(1...3) && .unique && .each(.oneOf(["a", "b", "c", "d"]))
        #expect(tags.check(["a", "b"]) == nil)
        #expect(tags.check([])?.code == .empty)
        #expect(tags.check(["a", "b", "c", "d"])?.code == .tooLong)
        #expect(tags.check(["a", "a"])?.code == .notUnique)
        let bad = tags.check(["a", "z"])
        #expect(bad?.code == .notAllowed)
        #expect(bad?.path == [.index(1)])  // reported at the element, not the collection
        #expect(bad?.error(at: [.key("tags")]).path == [.key("tags"), .index(1)])
        #expect(Rule<[Int]>.nonEmpty.check([])?.code == .empty)
    }

    @Test func datesWithinAWindow() {
        let launch = Date(timeIntervalSince1970: 1_528_000_000)
        let rule: Rule<Date> = .within(notBefore: launch)
        #expect(rule.check(launch.addingTimeInterval(10)) == nil)
        #expect(rule.check(launch.addingTimeInterval(-1))?.code == .tooEarly)
        #expect(rule.check(Date().addingTimeInterval(3_600))?.code == .tooLate)
        #expect(rule.check(Date().addingTimeInterval(60)) == nil)  // within the default skew
    }

    @Test func customRulesAndErrors() throws {
        let even: Rule<Int> = .custom("notEven", "must be even") { $0 % 2 == 0 }
        #expect(even.check(3)?.code == "notEven")
        let error = thrownError { () throws(VettedError) in try even.validate(3, at: [.key("count")]) }
        #expect(error == VettedError(code: "notEven", path: [.key("count")]))
        #expect(error?.message == "must be even")
    }

    @Test func debugDescriptionAddsAnEscapedCappedExcerpt() {
        let violation = Rule<String>.length(1...3).check("\u{1B}[31m" + String(repeating: "x", count: 200))
        #expect(violation?.description == "tooLong: must have at most 3 characters")
        let debug = violation?.debugDescription ?? ""
        #expect(debug.contains("\\u{1B}"))
        #expect(!debug.contains("\u{1B}"))
        #expect(debug.utf8.count < 120)
    }
}

@Suite struct LinearPatternTests {
    @Test(arguments: [
        ("[0-9]+(\\.[0-9]{1,2})?", ["0", "150", "150.5", "150.00"], ["", "1.", "1.234", "-1", "1e3", "a"]),
        ("[a-z]+(-[a-z]+)*", ["music", "hand-made"], ["-a", "a-", "A"]),
        ("(cat|dog)s?", ["cat", "dogs"], ["cats ", "bird"]),
        ("\\d{3}-\\d{4}", ["555-1234"], ["5551234", "55-1234"]),
        ("[^@\\s]+@[^@\\s]+", ["a@b.c"], ["a@@b", "a b@c"]),
        ("é.😀", ["éx😀"], ["ex😀"]),
    ])
    func matchesWholeInput(pattern: String, matching: [String], notMatching: [String]) throws {
        let compiled = try LinearPattern(pattern)
        for text in matching { #expect(compiled.matches(text), "\(pattern) should match \(text)") }
        for text in notMatching { #expect(!compiled.matches(text), "\(pattern) should not match \(text)") }
    }

    /// The classic catastrophic-backtracking patterns are linear here.
    @Test func noCatastrophicBacktracking() throws {
        let evil = String(repeating: "a", count: 50_000) + "b"
        #expect(!(try LinearPattern("(a+)+")).matches(evil))
        #expect(!(try LinearPattern("(a|a)*")).matches(evil))
        #expect(!(try LinearPattern("(a*)*c")).matches(evil))
    }

    @Test(arguments: ["(", "a)", "[a-", "*a", "a{2,1}", "a{101}", "\\q", String(repeating: "a", count: 1_001), String(repeating: "(", count: 60) + String(repeating: ")", count: 60)])
    func malformedPatternsAreErrors(pattern: String) {
        let error = thrownError { () throws(VettedError) in _ = try LinearPattern(pattern) }
        #expect(error?.code == .invalidPattern)
    }

    @Test func inputLengthIsCappedBeforeMatching() throws {
        let rule: Rule<String> = .pattern(try LinearPattern("a*"), maximumLength: 10)
        #expect(rule.check("aaaa") == nil)
        #expect(rule.check(String(repeating: "a", count: 11))?.code == .tooLong)
        #expect(rule.check("ab")?.code == .patternMismatch)
    }
}

@Suite struct URLRuleTests {
    /// The talk's listing URL: at most 50 characters, https, host exactly example.com.
    static let listing = URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50)

    @Test(arguments: [
        ("https://example.com/listings/1", nil),
        ("https://EXAMPLE.com./x", nil),
        ("https://example.com:443/x?y#z", nil),
        ("http://example.com/", VettedError.Code.schemeNotAllowed),
        ("javascript:alert(1)", .schemeNotAllowed),
        ("not a url", .invalidURL),
        ("https:example.com", .invalidURL),
        ("https://example.com\\@evil.test/", .invalidURL),
        ("https://example.com@evil.test/", .userInfoNotAllowed),
        ("https://user:pass@example.com/", .userInfoNotAllowed),
        ("https://evil.test/", .hostNotAllowed),
        ("https://example.com.evil.test/", .hostNotAllowed),
        ("https://www.example.com/", .hostNotAllowed),
        ("https://127.0.0.1/", .ipHostNotAllowed),
        ("https://2130706433/", .ipHostNotAllowed),
        ("https://0x7f.1/", .ipHostNotAllowed),
        ("https://[::1]/", .ipHostNotAllowed),
        ("https://ex\u{0430}mple.com/", .confusableHost),  // Cyrillic а
        ("https://xn--exmple-4nf.com/", .confusableHost),  // the same host, in Punycode
        ("https://\u{FF45}xample.com/", .confusableHost),  // fullwidth e
        ("https://xn--80ak6aa92e.com/", .confusableHost),  // аррӏе, all Cyrillic: a whole-script look-alike of "apple"
        ("https://xn--e1afmkfd.com/", .hostNotAllowed),  // пример, a Cyrillic word that looks like nothing Latin
        ("https://example.com:99999/", .invalidURL),
        ("https://example.com/" + String(repeating: "x", count: 40), .tooLong),
    ] as [(String, VettedError.Code?)])
    func listingURLs(url: String, code: VettedError.Code?) {
        #expect(Rule<String>.url(Self.listing).check(url)?.code == code, "\(url)")
    }

    @Test func subdomainsAndOpenHostLists() {
        let api = URLPolicy(hosts: [.includingSubdomains("example.com")])
        #expect(Rule<String>.url(api).check("https://api.example.com/") == nil)
        #expect(Rule<String>.url(api).check("https://notexample.com/")?.code == .hostNotAllowed)
        let open = URLPolicy.anyHost()
        #expect(Rule<String>.url(open).check("https://anything.test/") == nil)
        #expect(Rule<String>.url(open).check("https://p\u{0430}ypal.com/")?.code == .confusableHost)  // mixed scripts
        #expect(Rule<String>.url(URLPolicy.anyHost(allowsIPHosts: true)).check("https://10.0.0.1/") == nil)
    }

    /// An empty allowlist fails closed: a declaration error on every value (and without one),
    /// never "any host". Any host is asked for by name.
    @Test func anEmptyHostListIsADeclarationError() {
        let empty = URLPolicy(hosts: [])
        #expect(empty.declarationError?.code == .emptyHostAllowlist)
        let rule = Rule<String>.url(empty)
        #expect(rule.declarationError?.code == .emptyHostAllowlist)
        #expect(rule.check("https://example.com/")?.code == .emptyHostAllowlist)
        #expect(VettedError.Code.emptyHostAllowlist.isRuleDeclaration)
        var emptied = URLPolicy(hosts: [.exact("example.com")])
        emptied.hosts = []
        #expect(emptied.declarationError?.code == .emptyHostAllowlist)
        #expect(URLPolicy.anyHost().declarationError == nil)
        #expect(URLPolicy.anyHost().allowsAnyHost && !URLPolicy(hosts: [.exact("a.test")]).allowsAnyHost)
        // Combined and nested rules keep it.
        #expect((Rule<String>.length(1...10) && .url(empty)).declarationError?.code == .emptyHostAllowlist)
        #expect(Rule<[String]>.each(.url(empty)).declarationError?.code == .emptyHostAllowlist)
        #expect(Rule<[String]>.each(.pattern("[a-")).declarationError?.code == .invalidPattern)
    }

    @Test func urlValues() throws {
        let url = try #require(URL(string: "https://example.com/listings/1"))
        #expect(Rule<URL>.url(Self.listing).check(url) == nil)
    }

    /// Labels encoded by Python's punycode codec: examplе (Cyrillic е), paуpal (Cyrillic у);
    /// `ab-9999999999999` is one it rejects.
    @Test func punycodeLabelsAreDecodedBeforeComparing() {
        #expect(Rule<String>.url(Self.listing).check("https://xn--exampl-8of.com/")?.code == .confusableHost)
        #expect(Rule<String>.url(URLPolicy.anyHost()).check("https://xn--papal-fze.com/")?.code == .confusableHost)
        #expect(Rule<String>.url(Self.listing).check("https://xn--ab-9999999999999.com/")?.code == .invalidURL)
    }
}

@Suite struct URLFastPathTests {
    /// The ASCII fast path gives the general path's verdict on every URL-like
    /// string it takes (seeded; replay with VETTED_SEED).
    @Test func asciiFastPathAgreesWithTheGeneralPath() {
        let seed = SeededGenerator.seed(for: "asciiFastPathAgreesWithTheGeneralPath")
        var random = SeededGenerator(seed: seed)
        let pieces = [
            "https", "http", "HTTPS", "ftp", "h+t", "1x", "", ":", "//", "/", "///", "@", "user:pw@", "[::1]", ":443", ":99999", ":",
            ":x", "example.com", "EXAMPLE.com", "www.example.com", "example.com.", "example.com..", "evil.test", ".example.com",
            "a..b", "%41", "127.0.0.1", "2130706433", "0x7f.1", "0x", "xn--exmple-4nf.com", "xN--abc", "1..", "?q=1", "#frag",
            "/listings/1", "\\", " ", "\t", "-", ".", "0", "com",
        ]
        let policies = [
            URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 80),
            URLPolicy(schemes: ["https", "http"], hosts: [.includingSubdomains("Example.com")], maximumLength: 80, allowsIPHosts: true),
            URLPolicy.anyHost(maximumLength: 80, allowsUserInfo: true),
        ]
        var checked = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
            if Bool.random(using: &random) { text = "https://" + text }
            for policy in policies {
                guard let fast = policy.asciiVerdict(text) else { continue }
                checked += 1
                #expect(fast.violation?.code == policy.generalViolation(for: text)?.code, "\(text) (seed \(seed))")
            }
        }
        #expect(checked > 30_000)
    }
}

/// Field checks and relations take the value in hand without boxing it when
/// its type is the rule's own, and fall back to a cast for subclasses.
@Suite struct TypedCheckTests {
    class Shape: Comparable, @unchecked Sendable {
        let sides: Int
        init(sides: Int) { self.sides = sides }
        static func == (lhs: Shape, rhs: Shape) -> Bool { lhs.sides == rhs.sides }
        static func < (lhs: Shape, rhs: Shape) -> Bool { lhs.sides < rhs.sides }
    }
    final class Square: Shape, @unchecked Sendable {
        init() { super.init(sides: 4) }
    }

    static let atMostThreeSides = Field("shape", Rule<Shape>.custom(.outOfRange, "too many sides") { $0.sides <= 3 })

    @Test func fieldChecksRunOnTheirTypeAndOnSubclasses() {
        let check = Self.atMostThreeSides
        #expect(check.check(Shape(sides: 3)) == nil)
        #expect(check.check(Shape(sides: 5))?.code == .outOfRange)  // the rule's own type
        #expect(check.check(Square())?.code == .outOfRange)  // a subclass, by cast
        #expect(check.check(Square() as Any)?.code == .outOfRange)  // boxed
        #expect(check.check("five sides") == nil)  // another type: no violation from `check`…
        guard case .wrongType = check.outcome("five sides") else {  // …but decoders see it for what it is
            Issue.record("a String is not a Shape")
            return
        }
        guard case .passed = check.outcome(Shape?.none) else {  // a missing optional is not checked
            Issue.record("nil is not checked")
            return
        }
    }

    @Test func relationsRunOnTheirTypeAndOnSubclasses() throws {
        let relation = Relation("later", after: "earlier", as: Shape.self)
        let pair = try #require(relation.pairBody)
        #expect(pair(Shape(sides: 4), Shape(sides: 3)).violation == nil)
        #expect(pair(Shape(sides: 3), Shape(sides: 4)).violation?.code == .relationViolated)
        #expect(pair(Shape(sides: 3), Square()).violation?.code == .relationViolated)  // one side a subclass
        guard case .wrongType = pair(Shape(sides: 3), 4) else {  // not a Shape: a declaration error for decoders
            Issue.record("4 is not a Shape")
            return
        }
        #expect(relation.check(["later": Shape(sides: 3), "earlier": Square()])?.code == .relationViolated)
    }

    /// The ASCII fast path compares against byte copies of the allowlists; changing them after `init` updates the copies.
    @Test func urlPolicyChangesAfterInitApply() {
        var policy = URLPolicy(hosts: [.exact("example.com")])
        #expect(policy.violation(for: "https://other.test/")?.code == .hostNotAllowed)
        policy.hosts = [.exact("Other.test")]
        #expect(policy.violation(for: "https://other.test/") == nil)
        #expect(policy.violation(for: "https://example.com/")?.code == .hostNotAllowed)
        #expect(policy.violation(for: "http://other.test/")?.code == .schemeNotAllowed)
        policy.schemes = ["http"]
        #expect(policy.violation(for: "HTTP://other.test/") == nil)
        #expect(policy == URLPolicy(schemes: ["http"], hosts: [.exact("Other.test")]))
    }
}

import Foundation
import Testing
@testable import VettedRules
import VettedCore

/// Look-alike hosts, judged with Unicode's confusables data (UTS #39 13.0.0) and Script property.
@Suite struct ConfusablesTests {
    static let policy = URLPolicy(hosts: [.exact("example.com"), .exact("service.com"), .exact("google.com"), .includingSubdomains("shop.test")])

    @Test(arguments: [
        ("https://ex\u{0430}mple.com/", "Cyrillic а"),
        ("https://ex\u{03B1}mple.com/", "Greek α"),
        ("https://g\u{0585}\u{0585}gle.com/", "Armenian օ"),
        ("https://\u{ABAA}ervice.com/", "Cherokee small ꮪ"),
        ("https://\u{13DA}ervice.com/", "Cherokee capital Ꮪ, lower-cased by the host's case folding"),
        ("https://goo\u{0261}le.com/", "Latin script ɡ"),
        ("https://serv\u{0131}ce.com/", "Latin dotless ı"),
        ("https://\u{0251}pi.shop.test/", "Latin alpha ɑ in a subdomain label"),
        ("https://\u{FF45}xample.com/", "fullwidth ｅ"),
        ("https://servi\u{217D}e.com/", "Roman numeral ⅽ"),
        ("https://xn--exmple-4nf.com/", "Cyrillic а, in Punycode"),
    ])
    func lookAlikesOfAllowedHosts(url: String, what: String) {
        #expect(Rule<String>.url(Self.policy).check(url)?.code == .confusableHost, "\(what): \(url)")
    }

    @Test(arguments: [
        ("https://\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com/", VettedError.Code?.some(.confusableHost)),  // аррӏе: whole-script Cyrillic "apple"
        ("https://\u{0440}\u{0430}\u{0443}\u{0440}\u{0430}l.com/", .confusableHost),  // раураl: Cyrillic and Latin mixed
        ("https://p\u{03B1}yp\u{03B1}l.com/", .confusableHost),  // Greek α among Latin letters
        ("https://\u{043F}\u{0440}\u{0438}\u{043C}\u{0435}\u{0440}.com/", nil),  // пример: Cyrillic, looks like nothing Latin
        ("https://\u{65E5}\u{672C}\u{30C6}\u{30B9}\u{30C8}.jp/", nil),  // 日本テスト: Han with Katakana, as Japanese is written
        ("https://abc\u{65E5}\u{672C}.jp/", nil),  // Latin with Han: allowed
        ("https://\u{03B1}\u{03B2}\u{03B3}.gr/", nil),  // αβγ: Greek that does not read as Latin
        ("https://caf\u{00E9}.fr/", nil),  // café: Latin with a mark
    ])
    func openPolicies(url: String, code: VettedError.Code?) {
        #expect(Rule<String>.url(URLPolicy.anyHost()).check(url)?.code == code, "\(url)")
    }

    @Test func skeletonsAndScripts() {
        #expect(Confusables.skeleton("ex\u{0430}mple") == Confusables.skeleton("example"))
        #expect(Confusables.skeleton("example") == "exarnple")  // m's prototype is "rn": skeletons compare with skeletons
        #expect(Confusables.skeleton("\u{1D41E}") == "e")  // mathematical bold e
        #expect(Confusables.prototype(of: "a") == nil)
        #expect(Confusables.script(of: "a") == Confusables.latin)
        #expect(Confusables.script(of: "\u{0430}").map { ConfusablesData.scriptNames[$0] } == "CYRILLIC")
        #expect(Confusables.script(of: "\u{13DA}").map { ConfusablesData.scriptNames[$0] } == "CHEROKEE")
        #expect(Confusables.script(of: "-") == Confusables.common)
        #expect(Confusables.script(of: "\u{E0000}") == nil)  // unassigned
        #expect(ConfusablesData.version == "13.0.0" && ConfusablesData.sources.count == 6_311)
        // The tables are sorted, and every prototype range is inside the prototypes.
        #expect(zip(ConfusablesData.sources, ConfusablesData.sources.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(ConfusablesData.scriptStarts, ConfusablesData.scriptStarts.dropFirst()).allSatisfy { $0 < $1 })
        #expect(ConfusablesData.prototypeRanges.allSatisfy { Int($0 >> 8) + Int($0 & 0xFF) <= ConfusablesData.prototypes.count })
    }
}

/// `isRuleViolation` knows every code VettedRules declares for a value, so a caller
/// that sorts errors by stage (the example's purchase history) never misfiles one.
@Suite struct RuleCodeListTests {
    @Test func everyDeclaredViolationCodeIsListed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/VettedRules")
        var declared = Set<String>()
        for file in FileManager.default.subpaths(atPath: folder.path) ?? [] where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("public static let ") && line.contains("= VettedError.Code(\"") {
                if let name = line.split(separator: "\"").dropFirst().first { declared.insert(String(name)) }
            }
        }
        let declarations = Set(VettedError.Code.ruleDeclarations.map(\.rawValue))
        #expect(declarations == ["ruleKeyUnknown", "ruleKeyNotDecoded", "ruleTypeMismatch", "invalidPattern", "emptyHostAllowlist", "declarationNotChecked", "unionKeyIsPayloadField", "defaultBreaksRule"])
        #expect(declared.count > 20)
        #expect(Set(VettedError.Code.ruleViolations.map(\.rawValue)) == declared.subtracting(declarations))
        #expect(declarations.allSatisfy { VettedError.Code($0).isRuleDeclaration && !VettedError.Code($0).isRuleViolation })
        // `isRuleDeclaration` compares with the same list one by one: no other code is one.
        #expect(declared.subtracting(declarations).allSatisfy { !VettedError.Code($0).isRuleDeclaration })
    }
}

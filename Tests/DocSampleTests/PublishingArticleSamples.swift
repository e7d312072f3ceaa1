// The samples of "Publishing your rules" (VettedMacros.docc), compiled and run (see DocSampleTests).
import Foundation
import Testing
import VettedMacros

/// The article's `Listing`, in a namespace of its own.
enum PublishingArticle {
    // sample: PublishingYourRules.md#1
    @Vetted struct Listing: Codable {
        @Vetted enum Tag: String, Codable { case music, electric, acoustic, vintage, books, tools, garden, kids }

        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.length(1...200), .displaySafe()) var name: String
        @Check(.pattern("[0-9]+(\\.[0-9]{1,2})?", maximumLength: 32)) var price: String
        @Check(.url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50))) var url: String
        @Check(.count(1...10), .unique) var tags: [Tag]
        var note: String?
        var created: Date
        @Check(.notBefore(\Listing.created)) var lastUpdated: Date

        enum CodingKeys: String, CodingKey {
            case id, name, price, url, tags, note, created
            case lastUpdated = "last_updated"
        }
    }

    // end sample
}

// sample: PublishingYourRules.md#4
func ruleMessages(from bundle: Bundle) -> RuleMessageProvider {
    { code, parameters in
        let missing = "\u{0}"
        let format = bundle.localizedString(forKey: "rule.\(code.rawValue)", value: missing, table: "Rules")
        guard format != missing else { return nil }  // not in the catalog: Vetted's English
        return String(format: format, parameters["maximum"]?.description ?? "")
    }
}
// end sample

@Suite struct PublishingArticleSampleTests {
    typealias Listing = PublishingArticle.Listing

    /// The article's ```json block is what `jsonSchema()` writes, word for word.
    @Test func theSchemaInTheArticleIsTheOneWritten() throws {
        var printed = ""
        func print(_ text: String) { printed = text }
        // sample: PublishingYourRules.md#1
        let schema = Listing.jsonSchema()
        print(JSONWriter(style: .pretty).string(schema))
        // end sample
        let article = try String(
            contentsOf: DocSampleTests.root.appendingPathComponent("Sources/VettedMacros/VettedMacros.docc/PublishingYourRules.md"), encoding: .utf8)
        let json = try #require(article.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first)
        #expect(printed == json)
    }

    @Test func aCustomRuleThatDescribesItself() {
        var printed = ""
        func print(_ value: [RuleDescriptor]) { printed = "\(value)" }
        // sample: PublishingYourRules.md#2
        let even = Rule<Int>.custom(VettedError.Code("odd"), "must be even", describedAs: RuleDescriptor("multipleOf", ["factor": .integer(2)])) {
            $0 % 2 == 0
        }
        print(even.descriptors)  // [multipleOf(factor: 2)]
        // end sample
        #expect(printed == "[multipleOf(factor: 2)]")
        #expect(even.check(3)?.parameters == ["factor": .integer(2)])
    }

    @Test func openAPI() {
        var printed: [String] = []
        func print(_ value: [String]) { printed = value }
        // sample: PublishingYourRules.md#3
        let schemas = openAPIComponents(Listing.self)  // components.schemas
        print(schemas.objectValue?.keys.sorted() ?? [])  // ["Listing", "Tag"]
        // end sample
        #expect(printed == ["Listing", "Tag"])
    }

    /// The provider over a `Rules.strings` table, as Xcode compiles a String Catalog: German words for `tooLong`.
    @Test func aStringTableWiredToTheDecoder() throws {
        let bundlePath = NSTemporaryDirectory() + "vetted-rules-\(UUID().uuidString).bundle"
        defer { try? FileManager.default.removeItem(atPath: bundlePath) }
        for language in ["en", "de"] {
            let folder = bundlePath + "/Resources/\(language).lproj"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(#""rule.tooLong" = "Höchstens %@ Zeichen.";"#.utf8).write(to: URL(fileURLWithPath: folder + "/Rules.strings"))
        }
        let bundle = try #require(Bundle(path: bundlePath))
        // sample: PublishingYourRules.md#4
        let decoder = VettedJSONDecoder()
        decoder.messageProvider = ruleMessages(from: .main)
        // end sample
        decoder.messageProvider = ruleMessages(from: bundle)
        let long = String(repeating: "x", count: 201)
        let document = #"{"id": 0, "name": "\#(long)", "price": "1", "url": "https://example.com/", "tags": ["music"], "created": 1, "last_updated": 2}"#
        let failure = VettedFailure(try #require(throws: ValidationErrors.self) { try decoder.decode(Listing.self, from: Data(document.utf8)) })
        #expect(failure.errors.map(\.message) == ["must be between 1 and 2147483647", "Höchstens 200 Zeichen."])
        #expect(failure.errors.map(\.parameters["maximum"]) == [.integer(2_147_483_647), .integer(200)])
    }

}

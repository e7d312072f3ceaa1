// The README's quick start, compiled and run as the reader sees it (see DocSampleTests):
// the block is the whole file scope, so it supplies everything it uses.
// sample: README.md#2
import Foundation
import VettedMacros

// end sample
import Testing

struct QuickStart {
    // sample: README.md#2
    @Vetted struct Listing: Codable {
        enum Tag: String, Codable { case music, books, tools }

        @Check(.range(1...Int(Int32.max))) var id: Int
        @Check(.length(1...200), .displaySafe()) var name: String
        @Check(.url(URLPolicy(hosts: [.exact("example.com")]))) var url: String
        @Check(.count(1...10), .unique) var tags: [Tag]
    }

    func check(_ data: Data) -> [String] {
        do {
            let listings = try VettedJSONDecoder().decode([Listing].self, from: data)
            return ["\(listings.count) listings"]
        } catch {
            return VettedFailure(error).errors.map { "\($0.path) \($0.code)" }   // $[0].url confusableHost
        }
    }
    // end sample
}

@Suite struct ReadmeQuickStartTests {
    @Test func goodListingsDecode() {
        let json = #"[{"id": 1, "name": "Lamp", "url": "https://example.com/1", "tags": ["tools"]}]"#
        #expect(QuickStart().check(Data(json.utf8)) == ["1 listings"])
    }

    @Test func aLookAlikeHostIsCaughtAtItsPath() {
        let json = #"[{"id": 1, "name": "Lamp", "url": "https://ex\u0430mple.com/1", "tags": ["tools"]}]"#
        #expect(QuickStart().check(Data(json.utf8)) == ["$[0].url confusableHost"])
    }
}

import Testing
@testable import VettedCore
import VettedTestSupport

/// A path is printed in one string when it is short and plain; step by step (each step
/// escaped, the whole capped) otherwise. Both ways give the same text.
@Suite struct DocumentPathPrintingTests {
    @Test func plainPathsPrintAsBefore() {
        let path: DocumentPath = [.key("listings"), .index(12), .key("price")]
        #expect(path.description == "$.listings[12].price")
        #expect(path.jsonPointer == "/listings/12/price")
        #expect(DocumentPath().description == "$")
        #expect(DocumentPath().jsonPointer == "")
        let odd: DocumentPath = [.key("a b"), .key("x/y~z"), .index(-3)]
        #expect(odd.description == #"$["a b"]["x/y~z"][-3]"#)
        #expect(odd.jsonPointer == "/a b/x~1y~0z/-3")
    }

    @Test func theCommonPathAgreesWithTheStepByStepOne() {
        let seed: UInt64 = 0xD0C_9A7
        print("DocumentPathPrintingTests.theCommonPathAgreesWithTheStepByStepOne: seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        let pieces = ["id", "price", "last_updated", "a", "Z9", "9lives", "two words", "x/y", "~", "é", "\u{1B}[2J", "\\", "", String(repeating: "k", count: 45)]
        for round in 0..<3_000 {
            var components: [DocumentPath.Component] = []
            for _ in 0..<Int.random(in: 0...30, using: &generator) {
                if Bool.random(using: &generator) {
                    components.append(.index(Int.random(in: -20...100_000, using: &generator)))
                } else {
                    components.append(.key(pieces.randomElement(using: &generator) ?? "id"))
                }
            }
            let path = DocumentPath(components)
            #expect(path.description == path.generalDescription, "round \(round)")
            #expect(path.jsonPointer == path.generalPointer, "round \(round)")
            #expect(path.description.utf8.count <= DocumentPath.maximumBytes + 4, "round \(round)")
        }
    }
}

import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
import VettedTestSupport

/// Rule violations are read once: straight from the bytes, recorded where they are met,
/// and reported as the tape path reports them — error for error (code, path, offset,
/// message, excerpt, in order, with the count past the cap) — whatever order the keys
/// come in and whatever the validation mode.
@Suite struct DirectViolationTests {
    /// Values that break a rule, per member of `GenCorpus.directBase` (a nested one's keys out of order).
    static let violations: [String: [String]] = [
        "count": ["500", "-1"],
        "label": [#""""#, #""toolong""#, #""a\u0007""#],
        "levels": ["[1, 2, 1, 2]"],
        "note": [#""abcd""#],
        "tags": [#"["abcd", "", "a"]"#],
        "child": [#"{"end": 0, "name": " ", "start": 5}"#, #"{"name": "", "start": 3, "end": 1}"#],
        "children": [
            #"[{"name": " ", "start": 2, "end": 1}, {"start": 0, "end": 0, "name": "ok"}, {"end": -1, "start": 0, "name": ""}]"#,
            #"[{"name": "", "start": 0, "end": 0}]"#,
        ],
    ]

    static let modes: [ValidationMode] = [.collect, .collect(upTo: 0), .collect(upTo: 1), .collect(upTo: 2), .failFast]

    /// A document with `count` violations, its members shuffled.
    static func document(violating count: Int, generator: inout SeededGenerator) -> String {
        var members = GenCorpus.directBase(date: "1533390784.5").members
        let keys = violations.keys.sorted()
        for _ in 0..<count {
            let key = keys[generator.below(keys.count)]
            guard let choices = violations[key], let index = members.firstIndex(where: { $0.key == key }) else { continue }
            members[index].value = choices[generator.below(choices.count)]
        }
        for index in members.indices.reversed() where index > 0 {
            members.swapAt(index, generator.below(index + 1))
        }
        return Members(members: members).text
    }

    @Test func violationsInAnyKeyOrderAreReportedAsTheTapePathReportsThem() {
        let seed = SeededGenerator.seed(for: "DirectViolationTests.violationsInAnyKeyOrder")
        var generator = SeededGenerator(seed: seed)
        var failures = 0
        var direct = 0
        for round in 0..<120 where failures < 5 {
            let one = Self.document(violating: 1 + round % 5, generator: &generator)
            let two = Self.document(violating: round % 3, generator: &generator)
            for mode in Self.modes {
                var options = DecoderOptions()
                options.mode = mode
                if !compare(DirectItem.self, one, options) { failures += 1 }
                if !compare([DirectItem].self, "[\(one), \(two), \(one)]", options) { failures += 1 }
                if options.decoder(generated: true).decodesDirectly([DirectItem].self, from: Data("[\(one), \(two)]".utf8)) { direct += 1 }
            }
        }
        // Every one of these documents has the model's shape: none is decoded twice.
        #expect(direct == 120 * Self.modes.count, "seed \(seed)")
    }

    @Test func aViolationIsLocatedAtItsValueAndTheRestIsRead() throws {
        let base = GenCorpus.directBase(date: "1533390784.5")
        var members = base.members
        members[0].value = "500"
        let document = "[\(base.text), \(Members(members: members).text)]"
        let decoder = DecoderOptions().decoder(generated: true)
        #expect(decoder.decodesDirectly([DirectItem].self, from: Data(document.utf8)))
        let error = try #require(throws: ValidationErrors.self) { try decoder.decode([DirectItem].self, from: Data(document.utf8)) }
        #expect(error.errors.count == 1)
        #expect(error.errors.first?.code == .outOfRange)
        #expect(error.errors.first?.path.description == "$[1].count")
        #expect(error.errors.first?.offset == "[".utf8.count + base.text.utf8.count + ", ".utf8.count + #"{"count": "#.utf8.count)
    }

    /// A violation and then a document that is not the model's shape: the shape is the answer.
    @Test func aStructuralErrorAfterAViolationIsTheAnswer() {
        var members = GenCorpus.directBase(date: "1533390784.5").members
        members[0].value = "500"
        let violating = Members(members: members).text
        members.removeAll { $0.key == "flag" }
        let missing = Members(members: members).text
        for mode in Self.modes {
            var options = DecoderOptions()
            options.mode = mode
            #expect(compare([DirectItem].self, "[\(violating), \(missing)]", options))
            #expect(compare([DirectItem].self, "[\(violating), \(violating)", options))
            #expect(compare([DirectItem].self, "[\(violating), \(violating)] x", options))
        }
    }

    /// A cap of 0 keeps no violation, and the call still fails (it counts them).
    @Test func aCapOfZeroStillFails() throws {
        var members = GenCorpus.directBase(date: "1533390784.5").members
        members[0].value = "500"
        let document = Data("[\(Members(members: members).text)]".utf8)
        for direct in [true, false] {
            let decoder = DecoderOptions(mode: .collect(upTo: 0)).decoder(generated: true, direct: direct)
            let error = try #require(throws: ValidationErrors.self) { try decoder.decode([DirectItem].self, from: document) }
            #expect(error.errors.isEmpty)
            #expect(error.omitted == 1)
        }
    }

    func compare<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ options: DecoderOptions) -> Bool {
        let data = Data(document.utf8)
        let direct = Outcome { try options.decoder(generated: true).decode(T.self, from: data) }
        let tape = Outcome { try options.decoder(generated: true, direct: false).decode(T.self, from: data) }
        if direct != tape {
            Issue.record("\(T.self) under \(options):\n  \(document)\n  direct: \(direct)\n  tape: \(tape)")
            return false
        }
        return true
    }
}

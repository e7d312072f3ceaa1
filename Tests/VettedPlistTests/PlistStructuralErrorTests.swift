import Foundation
import Testing
import VettedCore
import VettedPlist

/// Property lists tell the same story as JSON: a structural failure is the
/// call's answer whatever rules failed before it, with its located
/// `VettedError` (binary: the object's offset; XML: the path, no offset yet).
@Suite struct PlistStructuralErrorTests {
    enum Terrain: String, Codable { case hill, sea }

    struct Trip: Codable, Validatable {
        var id: Int
        var terrains: [Terrain]
        static let validation = Validation<Trip> { Field("id", .range(1...100)) }
    }

    static func document(firstID: Int) -> PlistValue {
        .array([
            .dictionary(["id": .integer(PlistInteger(firstID)), "terrains": .array([.string("hill")])]),
            .dictionary(["id": .integer(PlistInteger(2)), "terrains": .array([.string("hill"), .string("sea"), .string("bogus")])]),
        ])
    }

    @Test(arguments: [0, 1])
    func binaryLocatesTheBadValueWhateverFailedBefore(firstID: Int) throws {
        let bytes = PlistWriter.binary(Self.document(firstID: firstID))
        let error = try #require(throws: DecodingError.self) { try VettedPropertyListDecoder().decode([Trip].self, from: Data(bytes)) }
        let located = try #require(error.vettedError)
        #expect(located.code == .invalidValue)
        #expect("\(located.path)" == "$[1].terrains[2]")
        // The offset is the string object's marker: ASCII string of 5 bytes, then "bogus".
        let offset = try #require(located.offset)
        #expect(bytes[offset] == 0x55)
        #expect(Array(bytes[(offset + 1)..<(offset + 6)]) == Array("bogus".utf8))
        #expect(VettedFailure(error).stage == .structure)
    }

    @Test func binaryLocatesAMissingKeyAtItsDictionary() throws {
        let bytes = PlistWriter.binary(.array([.dictionary(["id": .integer(PlistInteger(2))])]))
        let error = try #require(throws: DecodingError.self) { try VettedPropertyListDecoder().decode([Trip].self, from: Data(bytes)) }
        let located = try #require(error.vettedError)
        #expect(located.code == .keyNotFound)
        #expect("\(located.path)" == "$[0].terrains")
        let offset = try #require(located.offset)
        #expect(bytes[offset] == 0xD1)  // a dictionary of one entry
    }

    @Test(arguments: [0, 1])
    func xmlLocatesTheBadValueAtItsElement(firstID: Int) throws {
        let bytes = try PlistWriter.xml(Self.document(firstID: firstID))
        let error = try #require(throws: DecodingError.self) { try VettedPropertyListDecoder().decode([Trip].self, from: Data(bytes)) }
        let located = try #require(error.vettedError)
        #expect(located.code == .invalidValue)
        #expect("\(located.path)" == "$[1].terrains[2]")
        let offset = try #require(located.offset)
        #expect(String(decoding: bytes[offset...].prefix(21), as: UTF8.self) == "<string>bogus</string")
        #expect(located.line != nil)
        #expect(VettedFailure(error).stage == .structure)
    }

    /// A missing key: its `<dict>`; a sibling that has the key is not taken for it.
    @Test func xmlLocatesAMissingKeyAtItsDictionary() throws {
        let document = PlistValue.array([
            .dictionary(["id": .integer(PlistInteger(1)), "terrains": .array([])]),
            .dictionary(["id": .integer(PlistInteger(2))]),
            .dictionary(["id": .integer(PlistInteger(3)), "terrains": .array([])]),
        ])
        let bytes = try PlistWriter.xml(document)
        let error = try #require(throws: DecodingError.self) { try VettedPropertyListDecoder().decode([Trip].self, from: Data(bytes)) }
        let located = try #require(error.vettedError)
        #expect(located.code == .keyNotFound)
        #expect("\(located.path)" == "$[1].terrains")
        let offset = try #require(located.offset)
        let text = String(decoding: bytes, as: UTF8.self)
        let dicts = text.ranges(of: "<dict>").map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) }
        #expect(dicts.count == 3)
        #expect(offset == dicts[1])
    }
}

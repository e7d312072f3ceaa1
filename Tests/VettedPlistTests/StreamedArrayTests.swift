import Foundation
import Testing
import VettedCore
import VettedPlist
import VettedTestSupport

/// `VettedPropertyListDecoder` reads an array decoded from a binary plist's
/// top-level array one element's tree at a time (so the document's values are
/// never all alive at once). Every check of reading the whole document still
/// holds, with the same codes, offsets and paths.
@Suite struct StreamedArrayTests {
    struct Small: Codable, Validatable, Equatable {
        var n: Int
        static let validation = Validation<Small> { Field("n", Rule<Int>.range(0...9)) }
    }

    /// The located error under the decoder's `dataCorrupted`, as for input that cannot be read at all.
    private func readError<T: Decodable>(
        _ type: T.Type, _ bytes: [UInt8], limits: Limits = .default, sourceLocation: SourceLocation = #_sourceLocation
    ) -> VettedError? {
        let decoder = VettedPropertyListDecoder()
        decoder.limits = limits
        do {
            let value = try decoder.decode(type, from: bytes)
            Issue.record("decoded \(value)", sourceLocation: sourceLocation)
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.isEmpty, sourceLocation: sourceLocation)
            #expect(context.debugDescription.hasPrefix("The given data was not a valid property list."), sourceLocation: sourceLocation)
            return context.underlyingError as? VettedError
        } catch {
            Issue.record("expected dataCorrupted, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func elementsDecodeAsFromTheWholeValue() throws {
        let small = (0..<5).map { PlistValue.dictionary(["n": .integer(.signed(Int64($0)))]) }
        let bytes = PlistWriter.binary(.array(small))
        let decoder = VettedPropertyListDecoder()
        #expect(try decoder.decode([Small].self, from: bytes) == (0..<5).map(Small.init))
        #expect(try decoder.decode([Small].self, from: PlistParser().parse(bytes)) == (0..<5).map(Small.init))
        // Not an array at the top: read whole, as before.
        #expect(try decoder.decode(Small.self, from: PlistWriter.binary(small[3])) == Small(n: 3))
        // An empty top-level array.
        #expect(try decoder.decode([Small].self, from: PlistWriter.binary(.array([]))) == [])
    }

    @Test func anElementThatContainsTheArrayIsACycle() {
        let bytes = bplist([
            [0xA2, 0x01, 0x00],  // 0: [object 1, object 0]
            [0xA0],  // 1: empty array
        ])
        let error = readError([[Int]].self, bytes)
        #expect(error?.code == .cyclicReference)
        #expect(error?.offset == 8)
        #expect(error?.path == DocumentPath([.index(1)]))
    }

    @Test func sharedElementsCountAgainstTheValueLimitAcrossElements() {
        // [object 1 × 3], object 1 = [true, true]: 1 + 3 × 3 = 10 values.
        let bytes = bplist([
            [0xA3, 0x01, 0x01, 0x01],
            [0xA2, 0x02, 0x02],
            [0x09],
        ])
        let decoder = VettedPropertyListDecoder()
        decoder.limits = Limits(maxValues: 10)
        #expect(throws: Never.self) { try decoder.decode([[Bool]].self, from: bytes) }
        let error = readError([[Bool]].self, bytes, limits: Limits(maxValues: 9))
        #expect(error?.code == .valueLimitExceeded)
        #expect(error?.path == DocumentPath([.index(2), .index(1)]))
    }

    @Test func aBrokenElementIsThrownAloneAfterRuleViolations() throws {
        // Element 0 breaks a rule; element 1 is a string with an unpaired surrogate.
        let bytes = bplist([
            [0xA2, 0x01, 0x04],  // 0: [object 1, object 4]
            [0xD1, 0x02, 0x03],  // 1: {object 2: object 3}
            [0x51, UInt8(ascii: "n")],  // 2: "n"
            [0x10, 0x63],  // 3: 99
            [0xD1, 0x02, 0x05],  // 4: {object 2: object 5}
            [0x61, 0xD8, 0x00],  // 5: UTF-16 "\u{D800}", unpaired
        ])
        let error = readError([Small].self, bytes)
        #expect(error?.code == .invalidUTF16)
        #expect(error?.offset == 22)
        #expect(error?.path == DocumentPath([.index(1), .key("n")]))
    }

    @Test func theDuplicateKeyPolicyHoldsInEachElement() {
        let bytes = bplist([
            [0xA1, 0x01],  // 0: [object 1]
            [0xD2, 0x02, 0x02, 0x03, 0x03],  // 1: {"n": 1, "n": 1}
            [0x51, UInt8(ascii: "n")],  // 2: "n"
            [0x10, 0x01],  // 3: 1
        ])
        let error = readError([Small].self, bytes)
        #expect(error?.code == .duplicateKey)
        #expect(error?.path == DocumentPath([.index(0), .key("n")]))
    }

    /// A type error in an element is found when that element is decoded: before a
    /// defect in a later element (which reading the whole document first would report).
    @Test func errorsAreReportedInDocumentOrder() {
        let bytes = bplist([
            [0xA2, 0x01, 0x02],  // 0: [object 1, object 2]
            [0x09],  // 1: true (not a dictionary)
            [0x61, 0xD8, 0x00],  // 2: unpaired surrogate
        ])
        do {
            _ = try VettedPropertyListDecoder().decode([Small].self, from: bytes)
            Issue.record("expected typeMismatch")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.intValue) == [0])
        } catch {
            Issue.record("expected typeMismatch, got \(error)")
        }
    }

    /// `[Listing]` one level down: read as a whole tree, not one element at a time.
    struct Whole: Decodable {
        let listings: [Listing]
        init(from decoder: any Decoder) throws {
            listings = try decoder.singleValueContainer().decode([Listing].self)
        }
    }

    /// Streamed and whole reads accept exactly the same inputs, with equal values:
    /// every single-byte change (seeded) of a plist of three listings.
    @Test func streamedAndWholeReadsAgreeOnMutatedInput() throws {
        let listings = PlistValue.array((1...3).map { PlistlibListingTests.listing(id: $0, name: "Item \($0)", url: "https://example.com/\($0)") })
        let original = PlistWriter.binary(listings)
        let decoder = VettedPropertyListDecoder()
        #expect(try decoder.decode([Listing].self, from: original) == (try decoder.decode(Whole.self, from: original).listings))
        let seed = SeededGenerator.seed(for: "streamedAndWholeReadsAgreeOnMutatedInput")
        var generator = SeededGenerator(seed: seed)
        var disagreements: [String] = []
        var accepted = 0
        for _ in 0..<4_000 {
            var bytes = original
            let position = generator.below(bytes.count)
            bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            let streamed = Result { try decoder.decode([Listing].self, from: bytes) }
            let whole = Result { try decoder.decode(Whole.self, from: bytes).listings }
            switch (streamed, whole) {
            case (.success(let one), .success(let other)):
                accepted += 1
                if one != other { disagreements.append("byte \(position): different listings") }
            case (.failure, .failure): break
            case (.success, .failure), (.failure, .success): disagreements.append("byte \(position) = \(bytes[position]): one read accepts")
            }
        }
        #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.prefix(10))")
        #expect(accepted > 0, "seed \(seed): no mutation was accepted, so nothing was compared")
    }
}

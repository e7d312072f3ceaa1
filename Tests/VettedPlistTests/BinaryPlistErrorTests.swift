import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedPlist

/// Hand-made binary plists, one defect each, with the exact error.
@Suite struct BinaryPlistErrorTests {
    func expect(
        _ bytes: [UInt8], _ code: VettedError.Code, at offset: Int, path: DocumentPath = [], limits: Limits = Limits(),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let error = thrownError({ () throws(VettedError) in _ = try PlistParser(limits: limits).parse(bytes) }, sourceLocation: sourceLocation)
        #expect(error == VettedError(code: code, offset: offset, path: path), "\(error?.description ?? "no error")", sourceLocation: sourceLocation)
    }

    @Test func validFileReads() throws {
        let bytes = bplist([
            [0xA2, 0x01, 0x02],  // 0: array of objects 1 and 2
            [0x10, 0x2A],  // 1: integer 42
            [0x53] + Array("abc".utf8),  // 2: ASCII "abc"
        ])
        #expect(try PlistParser().parse(bytes) == .array([.integer(PlistInteger(42)), .string("abc")]))
    }

    @Test func tooShort() {
        expect(Array("bplist00".utf8) + [0x08], .invalidTrailer, at: 9)
    }

    @Test func offsetSizeOfZero() {
        let bytes = bplist([[0x09]]) { $0[6] = 0 }  // offset int size 0
        expect(bytes, .invalidTrailer, at: bytes.count - 32 + 6)
    }

    @Test func referenceSizeOfNine() {
        let bytes = bplist([[0x09]]) { $0[7] = 9 }  // object ref size 9
        expect(bytes, .invalidTrailer, at: bytes.count - 32 + 7)
    }

    @Test func objectCountLargerThanTheFile() {
        let bytes = bplist([[0x09]]) { $0.replaceSubrange(8..<16, with: bigEndian(.max)) }  // 2^64 - 1 objects
        expect(bytes, .invalidTrailer, at: bytes.count - 32 + 8)
    }

    @Test func topObjectOutOfRange() {
        let bytes = bplist([[0x09]], top: 1)  // only object 0 exists
        expect(bytes, .invalidTrailer, at: bytes.count - 32 + 16)
    }

    @Test func offsetTableOffsetThatOverflows() {
        let bytes = bplist([[0x09]]) { $0.replaceSubrange(24..<32, with: bigEndian(.max - 3)) }
        expect(bytes, .invalidTrailer, at: bytes.count - 32 + 24)
    }

    @Test func objectOffsetIntoTheOffsetTable() {
        let bytes = bplist([[0x09]], offsets: [9])  // object 0 "at" the offset table itself
        expect(bytes, .offsetOutOfBounds, at: 9)
    }

    @Test func referenceToAMissingObject() {
        let bytes = bplist([
            [0xA1, 0x05],  // 0: array referencing object 5 (of 2)
            [0x09],  // 1: true
        ])
        expect(bytes, .referenceOutOfBounds, at: 9, path: [.index(0)])
    }

    @Test func overlappingObjects() {
        let bytes = bplist(
            [
                [0xA1, 0x01],  // 0: array of object 1
                [0x53] + Array("abc".utf8),  // 1: "abc" at offset 10 …
            ],
            offsets: [8, 10, 11])  // … and object 2 claims offset 11, inside it
        { $0.replaceSubrange(8..<16, with: bigEndian(3)) }
        expect(bytes, .overlappingObjects, at: 11)
    }

    @Test func arrayThatContainsItself() {
        let bytes = bplist([
            [0xA1, 0x00]  // 0: array whose only element is object 0
        ])
        expect(bytes, .cyclicReference, at: 8, path: [.index(0)])
    }

    @Test func cycleThroughADictionary() {
        let bytes = bplist([
            [0xA1, 0x01],  // 0: array of object 1
            [0xD1, 0x02, 0x00],  // 1: dictionary {object 2: object 0}
            [0x51, UInt8(ascii: "k")],  // 2: "k"
        ])
        expect(bytes, .cyclicReference, at: 8, path: [.index(0), .key("k")])
    }

    @Test func sharedObjectsAreAllowed() throws {
        let bytes = bplist([
            [0xA3, 0x01, 0x01, 0x01],  // 0: [object 1, object 1, object 1]
            [0xA0],  // 1: empty array
        ])
        #expect(try PlistParser().parse(bytes) == .array([.array([]), .array([]), .array([])]))
    }

    /// Forty arrays, each holding the next one twice: 2^40 values from a few
    /// hundred bytes. Expansion counts against maxValues and fails fast.
    @Test func exponentialExpansionHitsTheValueLimit() {
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])  // 40: true
        let error = thrownError { () throws(VettedError) in _ = try PlistParser(limits: Limits(maxValues: 100_000)).parse(bplist(objects)) }
        #expect(error?.code == .valueLimitExceeded)
    }

    @Test func sixteenByteIntegerBeyondSixtyFourBits() {
        let bytes = bplist([
            [0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + bigEndian(0)  // 2^64: high half is not a sign extension
        ])
        expect(bytes, .integerOutOfRange, at: 8)
    }

    @Test func sixteenByteIntegersInRange() throws {
        let unsigned = bplist([[0x14] + bigEndian(0) + bigEndian(.max)])
        #expect(try PlistParser().parse(unsigned) == .integer(.unsigned(.max)))
        let negative = bplist([[0x14] + bigEndian(.max) + bigEndian(UInt64(bitPattern: -5))])
        #expect(try PlistParser().parse(negative) == .integer(.signed(-5)))
    }

    @Test func unpairedSurrogateInUTF16() {
        let bytes = bplist([
            [0x61, 0xD8, 0x00]  // UTF-16BE string of one unit: a lone high surrogate
        ])
        expect(bytes, .invalidUTF16, at: 9)
    }

    @Test func nonStringKey() {
        let bytes = bplist([
            [0xD1, 0x01, 0x01],  // 0: dictionary {object 1: object 1}
            [0x10, 0x01],  // 1: integer 1, used as a key
        ])
        expect(bytes, .nonStringKey, at: 11)
    }

    @Test func unknownMarker() {
        let bytes = bplist([[0x70]])  // 0x7_ is not an object type
        expect(bytes, .invalidObjectMarker, at: 8)
    }

    @Test func stringRunningIntoTheOffsetTable() {
        let bytes = bplist([[0x5F, 0x10, 0x40] + Array("abc".utf8)])  // claims 64 bytes, has 3
        expect(bytes, .truncatedObject, at: 8)
    }

    @Test func nonASCIIByteInAnASCIIString() {
        let bytes = bplist([[0x52, 0x61, 0xE9]])  // "a" then Latin-1 é
        expect(bytes, .invalidUTF8, at: 8)
    }

    @Test func limitsApply() {
        let nested = bplist([[0xA1, 0x01], [0xA1, 0x02], [0xA0]])  // [[[]]]
        expect(nested, .depthLimitExceeded, at: 12, path: [.index(0), .index(0)], limits: Limits(maxDepth: 2))
        let wide = bplist([[0xA3, 0x01, 0x01, 0x01], [0x09]])
        expect(wide, .memberLimitExceeded, at: 8, limits: Limits(maxMembers: 2))
        let long = bplist([[0x55] + Array("hello".utf8)])
        expect(long, .stringLengthLimitExceeded, at: 8, limits: Limits(maxStringBytes: 4))
        expect(long, .inputSizeLimitExceeded, at: 10, limits: Limits(maxInputBytes: 10))
    }

    @Test func nestingTheDepthCeilingNeverOverflowsTheStack() {
        // 5,000 arrays each holding the next.
        var objects: [[UInt8]] = (0..<4_999).map { _ in [0xA1, 0x00, 0x00] }
        objects.append([0xA0])
        let refs = objects.indices.map { index -> [UInt8] in
            index == objects.count - 1 ? [0xA0] : [0xA1] + [UInt8(truncatingIfNeeded: (index + 1) >> 8), UInt8(truncatingIfNeeded: index + 1)]
        }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in refs {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset))[5...] }  // 3-byte offsets
        bytes += [0, 0, 0, 0, 0, 0, 3, 2] + bigEndian(UInt64(refs.count)) + bigEndian(0) + bigEndian(UInt64(table))
        let error = thrownError { () throws(VettedError) in _ = try PlistParser(limits: .unlimited).parse(bytes) }
        #expect(error?.code == .depthLimitExceeded)
    }

    /// Values at the depth ceiling (arrays and dictionaries in turn) can be
    /// parsed, written in both formats, read back, compared and released on a
    /// thread with a 512 KiB stack.
    @Test func valuesAtTheDepthCeilingAreSafeOnSmallStacks() async {
        let ok = await onSmallStack {
            var value = PlistValue.bool(true)
            for level in 0..<(Limits.depthCeiling - 1) { value = level.isMultiple(of: 2) ? .array([value]) : .dictionary(["k": value]) }
            do {
                let parser = PlistParser(limits: .unlimited)
                let binary = try parser.parse(PlistWriter.binary(value))
                let xml = try parser.parse(try PlistWriter.xml(binary))
                return binary == value && xml == value
            } catch {
                return false
            }
        }
        #expect(ok)
    }

    @Test func unknownFormat() {
        expect(Array("hello".utf8), .unknownPlistFormat, at: 0)
        expect(Array("bplist01".utf8) + [UInt8](repeating: 0, count: 40), .unknownPlistFormat, at: 0)
    }
}

import Foundation
import Testing
import VettedCore
import VettedPlist
import VettedTestSupport

/// What a binary plist expands into is bounded (`Limits.maxAmplification`), not only how many values it has.
@Suite struct AmplificationTests {
    /// Where object `index` starts, from the file's own offset table.
    func objectOffset(_ bytes: [UInt8], _ index: Int) -> Int {
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let table = bytes[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
        return bytes[(table + index * offsetSize)..<(table + (index + 1) * offsetSize)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The error reading `bytes` gives, or nil when it reads.
    func readError(_ bytes: [UInt8], limits: Limits = .default) -> VettedError? {
        do throws(VettedError) {
            _ = try PlistParser(limits: limits).parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// Python's `plistlib.dumps(['a' * (1 << 20)] * 4000, fmt=FMT_BINARY)`: 1 MB that named 4 GB.
    /// Each use of the string counts its bytes; the reader stops at the allowance, having made one copy.
    @Test func aSharedStringCountsEachTimeItIsUsed() throws {
        let bytes = PlistWriter.binary(.array(Array(repeating: .string(String(repeating: "a", count: 1 << 20)), count: 4_000)))
        #expect(bytes.count < 1_060_000)
        let allowance = Limits.default.expansionAllowance(forInputBytes: bytes.count)
        #expect(allowance == 100 * bytes.count)
        // The array costs one value; each element a value and its 1 MiB.
        let fitting = (allowance - ExpansionBudget.valueCost) / (ExpansionBudget.valueCost + (1 << 20))
        let error = readError(bytes)
        #expect(error == VettedError(code: .amplificationLimitExceeded, offset: objectOffset(bytes, 1), path: [.index(fitting)]))
    }

    /// Three arrays, each holding the next twice: values are made in order 0, 1, 2, 2, 1, 2, 2.
    /// With room for six, the seventh — object 2 at `$[1][1]` — is refused.
    @Test func sharedContainersStopAtTheAllowance() {
        let bytes = bplist([
            [0xA2, 0x01, 0x01],  // 0: [object 1, object 1]
            [0xA2, 0x02, 0x02],  // 1: [object 2, object 2]
            [0x09],  // 2: true
        ])
        let limits = Limits(maxAmplification: 0, amplificationThreshold: 6 * ExpansionBudget.valueCost)
        #expect(readError(bytes, limits: limits) == VettedError(code: .amplificationLimitExceeded, offset: 14, path: [.index(1), .index(1)]))
        let roomy = Limits(maxAmplification: 0, amplificationThreshold: 7 * ExpansionBudget.valueCost)
        #expect(readError(bytes, limits: roomy) == nil)
    }

    /// Forty arrays, each holding the next twice (2^40 values in a few hundred bytes), under the
    /// default limits: stopped by the allowance (8 MiB: 524,288 values), well before `maxValues`.
    /// Values are made in preorder, so the refused one is value 524,288 (from 0) of the full binary tree.
    @Test func exponentialContainersStopUnderTheDefaultLimits() {
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])  // 40: true
        let bytes = bplist(objects)
        var remaining = (8 << 20) / ExpansionBudget.valueCost
        var path: [DocumentPath.Component] = []
        while remaining > 0 {
            remaining -= 1
            let left = (1 << (40 - path.count)) - 1  // values under the left child
            if remaining < left {
                path.append(.index(0))
            } else {
                remaining -= left
                path.append(.index(1))
            }
        }
        #expect(path.count == 39)
        #expect(readError(bytes) == VettedError(code: .amplificationLimitExceeded, offset: objectOffset(bytes, path.count), path: DocumentPath(path)))
    }

    /// Keys count too: one long key object shared by many dictionaries.
    @Test func aSharedKeyCountsEachTimeItIsUsed() {
        let key = String(repeating: "k", count: 1_000)
        let bytes = PlistWriter.binary(.array(Array(repeating: .dictionary(PlistDictionary([.init(key: key, value: .bool(true))])), count: 200)))
        let limits = Limits(maxAmplification: 0, amplificationThreshold: 50_000)
        let error = readError(bytes, limits: limits)
        #expect(error?.code == .amplificationLimitExceeded)
        // The array, then per dictionary: itself, its key (16 + 1,000) and its value: 1,048 bytes each.
        let fitting = (50_000 - 16) / 1_048
        #expect(error?.path.components.first == .index(fitting))
        #expect(readError(bytes) == nil)
    }

    /// A document written without sharing stays far below the ratio: the allowance refuses only inputs built to expand.
    @Test func ordinaryDocumentsStayBelowTheRatio() throws {
        var listings: [PlistValue] = []
        for id in 0..<2_000 {
            listings.append(
                .dictionary([
                    "id": .integer(PlistInteger(Int64(id))), "name": .string("Guitar \(id)"), "price": .real(Double(id) + 0.5),
                    "tags": .array([.string("music"), .string("acoustic")]), "sold": .bool(id % 2 == 0),
                ]))
        }
        let bytes = PlistWriter.binary(.array(listings))
        // No threshold: the ratio alone, 100× the file's size.
        #expect(readError(bytes, limits: Limits(amplificationThreshold: 0)) == nil)
        let xml = try PlistWriter.xml(.array(listings))
        #expect(readError(xml, limits: Limits(amplificationThreshold: 0)) == nil)
    }

    @Test func theAllowanceSaturatesAndIgnoresNegativeSettings() {
        #expect(Limits(maxAmplification: .max).expansionAllowance(forInputBytes: 2) == .max)
        #expect(Limits(maxAmplification: -5, amplificationThreshold: -1).expansionAllowance(forInputBytes: 10) == 0)
        #expect(Limits.unlimited.expansionAllowance(forInputBytes: 1) == .max)
        #expect(Limits().expansionAllowance(forInputBytes: 0) == 8 << 20)
    }
}

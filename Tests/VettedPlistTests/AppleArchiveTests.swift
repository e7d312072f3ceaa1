import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedPlist

/// The 46 NSKeyedArchiver plists written by Apple's Foundation (../shared).
@Suite(.enabled(if: Fixtures.appleArchivesAvailable, "Apple archives not found at ../shared/fixtures/keyed-archives/apple; skipping"))
struct AppleArchiveTests {
    @Test func thereAreFortySixArchives() {
        #expect(Fixtures.appleArchiveNames.count == 46)
    }

    @Test(arguments: Fixtures.appleArchiveNames)
    func everyArchiveReadsAndRoundTrips(name: String) throws {
        let bytes = try Fixtures.appleArchive(name)
        let value = try PlistParser().parse(bytes)
        #expect(value["$archiver"] == .string("NSKeyedArchiver"))
        #expect(value["$version"] == .integer(PlistInteger(100_000)))
        #expect(value["$top"]?["root"]?.uidValue != nil)
        #expect(try PlistParser().parse(PlistWriter.binary(value)) == value)
        #expect(try PlistParser().parse(PlistWriter.xml(value)) == value)
    }

    @Test func setOfNumbersValueByValue() throws {
        let value = try PlistParser().parse(try Fixtures.appleArchive("NSSet-Numbers.archive"))
        let objects = try #require(value["$objects"])
        #expect(objects[0] == .string("$null"))
        #expect(objects[1]?["NS.objects"] == .array([.uid(2), .uid(3), .uid(4), .uid(5), .uid(6)]))
        #expect(objects[1]?["$class"] == .uid(7))
        #expect((2...5).map { objects[$0] } == [3, 2, 5, 1].map { .integer(PlistInteger($0)) })
    }

    @Test func indexPathDataValueByValue() throws {
        let value = try PlistParser().parse(try Fixtures.appleArchive("NSIndexPath-ManyIndices.archive"))
        let objects = try #require(value["$objects"])
        #expect(objects[1]?["NSIndexPathLength"] == .integer(PlistInteger(6)))
        #expect(objects[2]?["NS.data"] == .data(Data([0x04, 0x08, 0x0F, 0x10, 0x17, 0x2A])))
        #expect(objects[3]?["$classname"] == .string("NSMutableData"))
        #expect(objects[3]?["$classes"] == .array(["NSMutableData", "NSData", "NSObject"].map { .string($0) }))
    }

    @Test func xmlArchiveReadsUIDsFromCFUIDDictionaries() throws {
        let value = try PlistParser().parse(try Fixtures.appleArchive("NSKeyedUnarchiver-URLTest.plist"))
        #expect(PlistParser.format(of: SourceText(try Fixtures.appleArchive("NSKeyedUnarchiver-URLTest.plist"))) == .xml)
        #expect(value["$top"]?["root"] == .uid(1))
        let objects = try #require(value["$objects"])
        #expect(objects[1]?["NS.relative"] == .uid(5))
        #expect(objects[3] == .string("https://www.example.com"))
        #expect(objects[5] == .string("foo.xml"))
    }

    /// Every single-byte change of every archive gives a value or a typed
    /// error located inside the input. By default each byte is changed to
    /// eleven values that exercise markers, sizes and offsets; with
    /// VETTED_EXHAUSTIVE=1 (by hand, in a release build; see the README) to all 255
    /// others. Foundation's reader is never called on mutated data: it crashes.
    @Test(arguments: Fixtures.appleArchiveNames)
    func everySingleByteMutationGivesAValueOrATypedError(name: String) throws {
        let original = try Fixtures.appleArchive(name)
        let limits = Limits(maxValues: 100_000)
        for position in original.indices {
            let byte = original[position]
            let replacements = SingleByteMutations.replacements(for: byte) {
                [0x00, 0xFF, 0x0F, 0x7F, 0x80, $0 ^ 0x01, $0 ^ 0x10, $0 ^ 0x80, $0 &+ 1, $0 &- 1, ~$0]
            }
            for replacement in replacements {
                var mutated = original
                mutated[position] = replacement
                do {
                    _ = try PlistParser(limits: limits).parse(mutated)
                } catch {
                    if !(0...mutated.count).contains(error.offset ?? -1) {
                        Issue.record("\(name) byte \(position) → \(replacement): \(error) has no offset in the input")
                        return
                    }
                }
            }
        }
    }
}

import Foundation
import Testing
import VettedCore
import VettedPlist
import VettedTestSupport

/// A dictionary with the same key twice. Foundation keeps the last one
/// silently (binary and XML); Vetted rejects it by default with
/// `duplicateKey` at the key, or keeps the first or last when told.
@Suite struct PlistDuplicateKeyTests {
    struct Pair: Codable, Equatable { var a: Int }

    /// {"a": 1, "a": 2, "b": 3} in binary: the writer writes entries as given.
    static let binary = PlistWriter.binary(
        .dictionary(PlistDictionary([.init(key: "a", value: .integer(.signed(1))), .init(key: "a", value: .integer(.signed(2))), .init(key: "b", value: .integer(.signed(3)))])))
    static let xml = Array(
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer><key>b</key><integer>3</integer></dict></plist>"#
            .utf8)

    @Test func foundationKeepsTheLastSilently() throws {
        #expect(try PropertyListDecoder().decode(Pair.self, from: Data(Self.binary)) == Pair(a: 2))
        #expect(try PropertyListDecoder().decode(Pair.self, from: Data(Self.xml)) == Pair(a: 2))
    }

    @Test func readersRejectByDefaultAtTheKey() throws {
        let binary = thrownError { () throws(VettedError) in _ = try PlistParser().parse(Self.binary) }
        #expect(binary?.code == .duplicateKey)
        #expect(binary?.path == [.key("a")])
        // At the repeated key's string object; the writer stores "a" once, so both entries name the same object.
        #expect(binary?.offset == binary?.relatedOffset)
        let xml = thrownError { () throws(VettedError) in _ = try PlistParser().parse(Self.xml) }
        #expect(xml == VettedError(code: .duplicateKey, offset: 59, path: [.key("a")]))  // at its <dict>
    }

    @Test func keepFirstAndKeepLast() throws {
        for bytes in [Self.binary, Self.xml] {
            let first = try PlistParser(duplicateKeys: .keepFirst).parse(bytes)
            #expect(first == .dictionary(["a": .integer(.signed(1)), "b": .integer(.signed(3))]))
            let last = try PlistParser(duplicateKeys: .keepLast).parse(bytes)
            #expect(last == .dictionary(["a": .integer(.signed(2)), "b": .integer(.signed(3))]))
            guard case .dictionary(let kept) = last else { return }
            #expect(kept.keys == ["a", "b"])  // the last value at the first one's place
        }
    }

    @Test func theDecoderAppliesThePolicy() throws {
        let decoder = VettedPropertyListDecoder()
        for bytes in [Self.binary, Self.xml] {
            do {
                _ = try decoder.decode(Pair.self, from: bytes)
                Issue.record("expected duplicateKey")
            } catch DecodingError.dataCorrupted(let context) {
                #expect((context.underlyingError as? VettedError)?.code == .duplicateKey)
            }
        }
        decoder.duplicateKeyPolicy = .keepLast
        #expect(try decoder.decode(Pair.self, from: Self.binary) == Pair(a: 2))
        decoder.duplicateKeyPolicy = .keepFirst
        #expect(try decoder.decode(Pair.self, from: Self.xml) == Pair(a: 1))
        // A PlistValue made in code is held to the same policy.
        decoder.duplicateKeyPolicy = .reject
        let value = try PlistParser(duplicateKeys: .keepFirst).parse(Self.binary)
        #expect(try decoder.decode(Pair.self, from: value) == Pair(a: 1))
    }

    /// Nested dictionaries: the path names the inner one.
    @Test func nestedRepeatsNameTheirPath() throws {
        let inner = PlistValue.dictionary(PlistDictionary([.init(key: "k", value: .bool(true)), .init(key: "k", value: .bool(false))]))
        let outer = PlistWriter.binary(.dictionary(["list": .array([.integer(.signed(0)), inner])]))
        let error = thrownError { () throws(VettedError) in _ = try PlistParser().parse(outer) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.path == [.key("list"), .index(1), .key("k")])
    }
}

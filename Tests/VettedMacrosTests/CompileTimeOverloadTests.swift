import Foundation
import Synchronization
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros
@_spi(Testing) import VettedPlist
import VettedRules
import VettedTestSupport

/// Where the type is known to be `@Vetted`, `decode(_:from:)` resolves to an
/// overload whose read is fixed at compile time. It must give exactly what the
/// `decode(_:from:)` for any `Decodable` gives (values, errors, offsets), and
/// must reach a subclass's override of `decode(_:from:)`. (`Outcome` compares values
/// with `==`, and errors with their codes, paths, offsets, messages and excerpts.)
@Suite struct CompileTimeOverloadTests {
    /// `decode(_:from:)` where `T` is only `Decodable`: the open method.
    static func anyDecodable<T: Decodable>(_ decoder: VettedJSONDecoder, _ type: T.Type, _ data: Data) throws -> T {
        try decoder.decode(T.self, from: data)
    }

    static func anyDecodable<T: Decodable>(_ decoder: VettedJSONDecoder, _ type: T.Type, _ bytes: [UInt8]) throws -> T {
        try decoder.decode(T.self, from: bytes)
    }

    static func anyDecodable<T: Decodable>(_ decoder: VettedPropertyListDecoder, _ type: T.Type, _ data: Data) throws -> T {
        try decoder.decode(T.self, from: data)
    }

    /// Records a difference; `true` when both calls of the pair agree.
    static func same(_ known: Outcome, _ generic: Outcome, _ what: @autoclosure () -> String) -> Bool {
        if known == generic { return true }
        Issue.record("\(what())\n  overload: \(known)\n  generic:  \(generic)")
        return false
    }

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func everyMutationOfTheGeneratedCorpusDecodesAsTheGenericCallDoes(_ options: DecoderOptions) {
        var failures = 0
        var compared = 0
        for document in GenCorpus.documents(date: GeneratedDecodingDifferentialTests.dateText(options)) where failures < 5 {
            for direct in [true, false] {
                let decoder = options.decoder(generated: true, direct: direct)
                let one = Data(document.utf8)
                let many = Array("[\(document), \(document)]".utf8)
                let pairs = [
                    (Outcome { try decoder.decode(GenItem.self, from: one) }, Outcome { try Self.anyDecodable(decoder, GenItem.self, one) }),
                    (Outcome { try decoder.decode([GenItem].self, from: many) }, Outcome { try Self.anyDecodable(decoder, [GenItem].self, many) }),
                ]
                for (known, generic) in pairs {
                    compared += 1
                    if !Self.same(known, generic, "\(options), direct \(direct): \(document)") { failures += 1 }
                }
            }
        }
        #expect(compared > 1_000)
    }

    @Test func everyMutationOfTheDirectCorpusDecodesAsTheGenericCallDoes() {
        var failures = 0
        var compared = 0
        let base = GenCorpus.directBase(date: "1533390784.5")
        let decoder = VettedJSONDecoder()
        for document in GenCorpus.documents(base: base, replacements: DirectDecodingDifferentialTests.replacements) where failures < 5 {
            let one = Array(document.utf8)
            let many = Data("[\(document), \(base.text)]".utf8)
            let pairs = [
                (Outcome { try decoder.decode(DirectItem.self, from: one) }, Outcome { try Self.anyDecodable(decoder, DirectItem.self, one) }),
                (Outcome { try decoder.decode([DirectItem].self, from: many) }, Outcome { try Self.anyDecodable(decoder, [DirectItem].self, many) }),
            ]
            for (known, generic) in pairs {
                compared += 1
                if !Self.same(known, generic, document) { failures += 1 }
            }
        }
        #expect(compared > 500)
    }

    @Test func everyMutationOfATaggedUnionDecodesAsTheGenericCallDoes() {
        var failures = 0
        var compared = 0
        let bases = [
            Members(members: [("type", #""created""#), ("id", "1"), ("name", #""Lamp""#)]),
            Members(members: [("id", "2"), ("price", "30"), ("type", #""listing.sold""#)]),
        ]
        let decoder = VettedJSONDecoder()
        for base in bases {
            for document in GenCorpus.documents(base: base, replacements: ShapesDifferentialTests.replacements) where failures < 5 {
                let one = Data(document.utf8)
                let many = Array("[\(document), \(base.text)]".utf8)
                let wrapped = Data(#"{"type": "listing.sold", "data": \#(document)}"#.utf8)
                let pairs = [
                    (Outcome { try decoder.decode(TestEvent.self, from: one) }, Outcome { try Self.anyDecodable(decoder, TestEvent.self, one) }),
                    (Outcome { try decoder.decode([TestEvent].self, from: many) }, Outcome { try Self.anyDecodable(decoder, [TestEvent].self, many) }),
                    (
                        Outcome { try decoder.decode(WrappedEvent.self, from: wrapped) },
                        Outcome { try Self.anyDecodable(decoder, WrappedEvent.self, wrapped) }
                    ),
                ]
                for (known, generic) in pairs {
                    compared += 1
                    if !Self.same(known, generic, document) { failures += 1 }
                }
            }
        }
        #expect(compared > 300)
    }

    @Test(arguments: [true, false])
    func everyPropertyListOfTheCorpusDecodesAsTheGenericCallDoes(generated: Bool) {
        var failures = 0
        var compared = 0
        let decoder = VettedPropertyListDecoder()
        decoder.generatedDecoding = generated
        for value in GenPlistCorpus.documents where failures < 5 {
            for data in [Data(PlistWriter.binary(value))] + [try? PlistWriter.xml(value)].compactMap({ $0.map { Data($0) } }) {
                let known = Outcome { try decoder.decode(GenItem.self, from: data) }
                let bytes = Outcome { try decoder.decode(GenItem.self, from: Array(data)) }
                let generic = Outcome { try Self.anyDecodable(decoder, GenItem.self, data) }
                compared += 1
                if !Self.same(known, generic, "\(value)") || !Self.same(bytes, generic, "[UInt8]: \(value)") { failures += 1 }
            }
        }
        #expect(compared > 500)
    }

    // MARK: Subclasses

    /// Overrides `decode(_:from:)` and counts its calls.
    final class CountingJSONDecoder: VettedJSONDecoder, @unchecked Sendable {
        // `@unchecked Sendable`: its one addition, `calls`, is a Mutex.
        let calls = Mutex(0)

        override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            calls.withLock { $0 += 1 }
            return try super.decode(T.self, from: data)
        }

        override func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
            calls.withLock { $0 += 1 }
            return try super.decode(T.self, from: bytes)
        }
    }

    final class CountingPlistDecoder: VettedPropertyListDecoder, @unchecked Sendable {
        // `@unchecked Sendable`: its one addition, `calls`, is a Mutex.
        let calls = Mutex(0)

        override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            calls.withLock { $0 += 1 }
            return try super.decode(T.self, from: data)
        }

        override func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
            calls.withLock { $0 += 1 }
            return try super.decode(T.self, from: bytes)
        }
    }

    @Test func aSubclassesOverrideIsCalledForVettedTypes() throws {
        let decoder = CountingJSONDecoder()
        let item = #"{"id": 1, "name": "Lamp"}"#
        let sold = #"{"type": "listing.sold", "id": 2, "price": 30}"#
        #expect(try decoder.decode(TestCreated.self, from: Data(item.utf8)) == TestCreated(id: 1, name: "Lamp"))
        #expect(try decoder.decode(TestCreated.self, from: Array(item.utf8)) == TestCreated(id: 1, name: "Lamp"))
        #expect(try decoder.decode(TestEvent.self, from: Data(sold.utf8)) == .sold(TestSold(id: 2, price: 30)))
        #expect(try decoder.decode(TestEvent.self, from: Array(sold.utf8)) == .sold(TestSold(id: 2, price: 30)))
        #expect(try decoder.decode([TestEvent].self, from: Data("[\(sold)]".utf8)) == [.sold(TestSold(id: 2, price: 30))])
        #expect(try decoder.decode([TestCreated].self, from: Array("[\(item)]".utf8)) == [TestCreated(id: 1, name: "Lamp")])
        // The same calls on the class as `VettedJSONDecoder`.
        let upcast: VettedJSONDecoder = decoder
        #expect(try upcast.decode(TestCreated.self, from: Data(item.utf8)) == TestCreated(id: 1, name: "Lamp"))
        #expect(try upcast.decode([TestCreated].self, from: Array("[\(item)]".utf8)) == [TestCreated(id: 1, name: "Lamp")])
        #expect(decoder.calls.withLock { $0 } == 8)

        let plist = CountingPlistDecoder()
        let bytes = PlistWriter.binary(.dictionary(PlistDictionary([.init(key: "id", value: .integer(PlistInteger(1))), .init(key: "name", value: .string("Lamp"))])))
        #expect(try plist.decode(TestCreated.self, from: Data(bytes)) == TestCreated(id: 1, name: "Lamp"))
        #expect(try plist.decode(TestCreated.self, from: bytes) == TestCreated(id: 1, name: "Lamp"))
        #expect(plist.calls.withLock { $0 } == 2)
    }

    @Test func theOverloadsErrorsAreTheGenericCallsExactly() throws {
        let decoder = VettedJSONDecoder()
        let data = Data(#"{"id": 0, "name": "Lamp"}"#.utf8)
        do {
            _ = try decoder.decode(TestCreated.self, from: data)
            Issue.record("decoded")
        } catch let errors as ValidationErrors {
            #expect(errors.errors.map { "\($0.code) \($0.path) \($0.offset.map(String.init) ?? "-")" } == ["outOfRange $.id 7"])
        }
        #expect(Outcome { try decoder.decode(TestCreated.self, from: data) } == Outcome { try Self.anyDecodable(decoder, TestCreated.self, data) })
    }
}

import Foundation
import Testing
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

/// Field types with no overload of their own in the field source: before, a type that reached
/// one sent every document to the tape; now the byte reader reads them, with the tape path's
/// values and errors (code, path, offset, message, in order) under every option.
@Vetted struct WideScalars: Codable {
    @Check(.range(-5...5)) var tiny: Int8
    var short: Int16
    var mid: Int32?
    var long: Int64
    var unsigned: UInt
    var byte: UInt8
    var word: UInt16
    @Check(.range(1...)) var wide: UInt32
    var big: UInt64
    var small: Float
    var link: URL
    var amount: Decimal
    @Check(.count(0...3)) var moments: [Date]
    var bytes: [UInt8]
    var ratios: [Float]
    var links: [URL]
    /// Under `base64` only (the other data strategies leave the type to the tape).
    var blob: Data
    @Check(.count(0...2)) var blobs: [Data]
    var spare: Data?
}

/// Equal values; NaN equals NaN (bit for bit): compared by their full descriptions.
extension WideScalars: Equatable {
    static func == (a: WideScalars, b: WideScalars) -> Bool {
        a.small.bitPattern == b.small.bitPattern && a.ratios.map(\.bitPattern) == b.ratios.map(\.bitPattern)
            && String(reflecting: a) == String(reflecting: b)
    }
}

@Suite struct DirectScalarTests {
    static func base(date: String) -> Members {
        Members(members: [
            ("tiny", "-3"), ("short", "300"), ("mid", "-70000"), ("long", "-9223372036854775808"), ("unsigned", "18446744073709551615"),
            ("byte", "255"), ("word", "65535"), ("wide", "4294967295"), ("big", "18446744073709551615"), ("small", "1.5e3"),
            ("link", #""https://example.com/a?b=c""#), ("amount", "12.50"), ("moments", "[\(date), \(date)]"), ("bytes", "[0, 1, 255]"),
            ("ratios", "[0.25, -0, 1e-3]"), ("links", #"["https://example.com", "mailto:a@b.c"]"#),
            ("blob", #""AAEC""#), ("blobs", #"["AA==", ""]"#), ("spare", "null"),
        ])
    }

    static let replacements = GenCorpus.replacements + GenCorpus.directReplacements + [
        "128", "-129", "65536", "-1", "4294967296", "3.5e38", "-3.5e38", "1e39", "[1, 256]", "[-1]", #""https://""#, #"["a b"]"#,
        "1e-400", "123456789012345678901234567890", "[null]", #"[1, "2"]"#, #""AA=""#, #"["AQ==", "A"]"#, #"["", "", ""]"#,
    ]

    @Test(arguments: GeneratedDecodingDifferentialTests.configurations)
    func everySingleMutationGivesTheSameResult(_ options: DecoderOptions) {
        let base = Self.base(date: GeneratedDecodingDifferentialTests.dateText(options))
        let documents = GenCorpus.documents(base: base, replacements: Self.replacements)
        var failures = 0
        var direct = 0
        let differential = DirectDecodingDifferentialTests()
        for document in documents where failures < 5 {
            if !differential.compare(WideScalars.self, document, options) { failures += 1 }
            if !differential.compare([WideScalars].self, "[\(document), \(base.text)]", options) { failures += 1 }
            if options.decoder(generated: true).decodesDirectly(WideScalars.self, from: Data(document.utf8)) { direct += 1 }
        }
        // `Data` is read from the bytes under `base64` only: under the other strategies the type is the tape's.
        if case .base64 = options.data {
            #expect(direct > documents.count / 3, "\(direct) of \(documents.count) decoded directly")
        } else {
            #expect(direct == 0)
        }
    }

    @Test func theyAreReadStraightFromTheBytes() throws {
        let decoder = DecoderOptions(date: .iso8601, dateName: "iso8601").decoder(generated: true)
        #expect(decoder.plansDirectDecoding(WideScalars.self) && decoder.plansDirectDecoding([WideScalars].self))
        let valid = Self.base(date: #""2018-08-04T13:53:04Z""#).text
        #expect(decoder.decodesDirectly(WideScalars.self, from: Data(valid.utf8)))
        let value = try decoder.decode(WideScalars.self, from: Data(valid.utf8))
        #expect(value.long == .min && value.big == .max && value.small == 1500 && value.link.host == "example.com")
        #expect(value.amount == Decimal(string: "12.50") && value.bytes == [0, 1, 255] && value.ratios[1].sign == .minus)
        // Out of its width, a wrong kind, a rule: each answered from the bytes, as the tape path answers.
        let bad = valid.replacingOccurrences(of: #""tiny": -3"#, with: #""tiny": -9"#).replacingOccurrences(of: #""byte": 255"#, with: #""byte": 256"#)
        #expect(decoder.decodesDirectly(WideScalars.self, from: Data(bad.utf8)))
        let error = try #require(throws: DecodingError.self) { try decoder.decode(WideScalars.self, from: Data(bad.utf8)) }
        #expect(error.vettedError.map { "\($0.code) \($0.path) @\($0.offset ?? -1)" } == "invalidValue $.byte @114")
        #expect(error.vettedError?.message.hasPrefix(#""byte": invalid value: Number 256 is not representable in U"#) == true)
    }
}

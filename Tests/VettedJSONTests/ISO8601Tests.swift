import Foundation
import Testing
@testable import VettedJSON
import VettedTestSupport

/// The ISO 8601 reader checks its first sixteen bytes as two words; a plain byte-by-byte
/// reader of the same grammar, written here, is the oracle: on seeded mutations of valid
/// date-times, both give the same date or both refuse, on the text and in a decode.
@Suite struct ISO8601Tests {
    struct Stamp: Decodable { var when: Date }

    static let samples = [
        "2018-08-04T13:53:04Z", "1999-12-31t23:59:59z", "2000-02-29T00:00:00.5Z", "2024-06-30T12:00:00.123456789+05:30",
        "1970-01-01T00:00:00-0800", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999+23:59",
    ]

    @Test func readsTheSamplesAsTheOracleDoes() {
        for text in Self.samples {
            let date = ISO8601.date(from: text)
            #expect(date != nil, "\(text)")
            #expect(date == Self.reference(text), "\(text)")
        }
        #expect(ISO8601.date(from: "2018-08-04T13:53:04Z") == Date(timeIntervalSince1970: 1_533_390_784))
    }

    @Test func mutationsGiveTheOraclesAnswer() {
        let seed: UInt64 = 0x150_8601
        print("ISO8601Tests.mutationsGiveTheOraclesAnswer: seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789-:Tt Zz.+/a~" .utf8) + [0x2F, 0x3A, 0x40, 0x60, 0xC3, 0xA9]
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var accepted = 0
        for round in 0..<4_000 {
            var bytes = Array(Self.samples[round % Self.samples.count].utf8)
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &generator))
                case 1: bytes.append(alphabet.randomElement(using: &generator) ?? 0x30)
                default:
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[index] = alphabet.randomElement(using: &generator) ?? 0x30
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = Self.reference(text)
            #expect(ISO8601.date(from: text) == expected, "round \(round): \(text)")
            let document = Data("{\"when\":\"\(text)\"}".utf8)
            let decoded = try? decoder.decode(Stamp.self, from: document).when
            #expect(decoded == expected, "round \(round): \(text)")
            if expected != nil { accepted += 1 }
        }
        // Both answers occur: the mutations reach the checks on both sides.
        #expect(accepted > 200)
        #expect(accepted < 3_800)
    }

    /// The grammar, one byte at a time: `YYYY-MM-DD(T|t)HH:MM:SS[.fraction](Z|z|±HH[:]MM)`.
    static func reference(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + length)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 0x2D, let month = number(5, 2), bytes[7] == 0x2D, let day = number(8, 2),
            bytes[10] == 0x54 || bytes[10] == 0x74, let hour = number(11, 2), bytes[13] == 0x3A, let minute = number(14, 2),
            bytes[16] == 0x3A, let second = number(17, 2)
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, day <= days[month - 1], hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 0x5A, 0x7A:
            index += 1
        case 0x2B, 0x2D:
            let sign = bytes[index] == 0x2D ? -1 : 1
            guard let hours = number(index + 1, 2), hours < 24 else { return nil }
            var minutesStart = index + 3
            if minutesStart < bytes.count, bytes[minutesStart] == 0x3A { minutesStart += 1 }
            guard let minutes = number(minutesStart, 2), minutes < 60 else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
            index = minutesStart + 2
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        // Days since 1970-01-01, counted the long way (years up to 9999: linear, small).
        var count = 0
        if year >= 1970 {
            for past in 1970..<year { count += (past % 4 == 0 && past % 100 != 0) || past % 400 == 0 ? 366 : 365 }
        } else {
            for past in year..<1970 { count -= (past % 4 == 0 && past % 100 != 0) || past % 400 == 0 ? 366 : 365 }
        }
        count += days.prefix(month - 1).reduce(0, +) + day - 1
        let seconds = count * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

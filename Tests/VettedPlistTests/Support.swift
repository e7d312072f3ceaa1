import Foundation
import Testing
import VettedCore
import VettedTestSupport
import VettedPlist

enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Apple's NSKeyedArchiver archives, third-party data kept in ../shared.
    static let appleArchives = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/keyed-archives/apple")

    static var appleArchivesAvailable: Bool { FileManager.default.fileExists(atPath: appleArchives.path) }

    static var appleArchiveNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: appleArchives.path)) ?? [])
            .filter { $0.hasSuffix(".archive") || $0.hasSuffix(".plist") }
            .sorted()
    }

    static func appleArchive(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: appleArchives.appendingPathComponent(name)))
    }
}

enum RandomPlist {
    /// Strings XML 1.0 can hold (no control characters but tab and line feed;
    /// no carriage return, which XML readers normalize), with non-ASCII and astral characters.
    static let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "<", ">", "&", "\"", "'", "\t", "\n", "é", "€", "😀", "\u{FEFF}", "]]>"].flatMap { $0.unicodeScalars }

    static func string(using generator: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...10, using: &generator) {
            if let scalar = alphabet.randomElement(using: &generator) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    static func value(depth: Int = 0, uids: Bool, using generator: inout SeededGenerator) -> PlistValue {
        let kinds = depth >= 4 ? 8 : 10
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .string(string(using: &generator))
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return .integer(PlistInteger(Int64.random(in: .min ... .max, using: &generator)))
            case 1: return .integer(PlistInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &generator)))
            case 2: return .integer(PlistInteger(Int64.random(in: -300...300, using: &generator)))
            default: return .integer(PlistInteger(Int64.random(in: 0...70_000, using: &generator)))
            }
        case 3: return .real([0.5, -1e300, 1e-300, 3.141592653589793, 0, .infinity].randomElement(using: &generator) ?? 1)
        case 4: return .data(Data((0..<Int.random(in: 0...20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 5:
            // Whole seconds: XML dates have no fractions.
            return .date(Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator))))
        case 6: return uids ? .uid(UInt64.random(in: 0...100_000, using: &generator)) : .bool(true)
        case 7: return .string(String(repeating: "x", count: Int.random(in: 14...40, using: &generator)))
        case 8:
            return .array((0..<Int.random(in: 0...16, using: &generator)).map { _ in value(depth: depth + 1, uids: uids, using: &generator) })
        default:
            var dictionary = PlistDictionary()
            for _ in 0..<Int.random(in: 0...16, using: &generator) {
                dictionary[string(using: &generator)] = value(depth: depth + 1, uids: uids, using: &generator)
            }
            return .dictionary(dictionary)
        }
    }
}

import Foundation
import Testing
import VettedCore
import VettedPlist

/// Where Foundation's PropertyListDecoder crashes, Vetted gives a typed,
/// located error. Foundation runs in a child process (`foundation-plist-probe`).
@Suite(.serialized) struct FoundationCrashTests {
    /// A model that follows the input's nesting.
    struct Nest: Decodable {
        var depth: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            depth = container.isAtEnd ? 0 : try container.decode(Nest.self).depth + 1
        }
    }

    /// `value` as `size` big-endian bytes.
    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// `levels` arrays, each holding the next: a binary plist of 9 bytes a level.
    static func nested(_ levels: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for level in 0...levels {
            offsets.append(bytes.count)
            if level == levels {
                bytes.append(0xA0)  // the innermost: an empty array
            } else {
                bytes.append(0xA1)
                bytes += bigEndian(level + 1, 4)
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4] + bigEndian(offsets.count, 8) + bigEndian(0, 8) + bigEndian(table, 8)
        return bytes
    }

    static func foundation(_ input: [UInt8]) throws -> Process.TerminationReason {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        let process = Process()
        process.executableURL = directory.appendingPathComponent("foundation-plist-probe")
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationReason
    }

    @Test func deepNestingCrashesFoundationAndIsATypedErrorInVetted() throws {
        let input = Self.nested(50_000)
        // Foundation: killed by a signal (its decoder recursed until the stack ran out).
        #expect(try Self.foundation(input) == .uncaughtSignal)
        // Vetted: the reader's depth limit, located, before any model code runs.
        do {
            _ = try VettedPropertyListDecoder().decode(Nest.self, from: input)
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            let error = try #require(context.underlyingError as? VettedError)
            #expect(error.code == .depthLimitExceeded)
            #expect(error.offset == 8 + 5 * Limits.default.effectiveMaxDepth)
        }
        // Shallow enough for both: the same value.
        #expect(try Self.foundation(Self.nested(40)) == .exit)
        #expect(try VettedPropertyListDecoder().decode(Nest.self, from: Self.nested(40)).depth == 40)
    }
}

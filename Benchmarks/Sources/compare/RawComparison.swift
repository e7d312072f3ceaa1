import ArgumentParser
import Foundation
import Vetted

/// SHA-256 of a file, streamed, against coreutils' `sha256sum` on the same file.
struct SHA256Throughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sha256",
        abstract: "SHA-256 of FILE: vetted.sha256 (streamed in 1 MiB chunks) against the sha256sum command.",
        discussion: "Both read the file from the page cache; sha256sum's time includes starting its process (~1 ms).")

    @Argument(help: "A large file.")
    var file: String

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let size = try Data(contentsOf: URL(fileURLWithPath: file)).count
        let ours = Hex.encode(try DigestAlgorithm.sha256.digest(ofFile: file))
        guard try Self.sha256sum(file) == ours else { throw ValidationError("Vetted and sha256sum disagree") }
        let medians = try timing.medians([
            { try DigestAlgorithm.sha256.digest(ofFile: self.file) },
            { try Self.sha256sum(self.file) },
        ])
        print(Timing.line("vetted.sha256", bytes: size, seconds: medians[0], peerSeconds: medians[1]))
        print(Timing.line("sha256sum", bytes: size, seconds: medians[1], peerSeconds: nil))
    }

    static func sha256sum(_ file: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("sha256sum failed") }
        return String(decoding: output.prefix(64), as: UTF8.self)
    }
}

/// What the raw stage costs before parsing, measured against the parse itself.
struct GateOverhead: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "The gate's cost on a JSON file against parsing it: read, read+SHA-256+Ed25519 signature, parse, decode.",
        discussion: """
            Lines (name, MB/s, and the share of the parse time in the last column):
              vetted.read              bounded read of the file (what any reader pays)
              vetted.gate              bounded read + SHA-256 check + Ed25519 detached signature check
              vetted.gate-checks       the checks alone on bytes in memory (digest + signature)
              vetted.parse             JSONParser.parse of the bytes
              vetted.decode-validate   VettedJSONDecoder [Listing] with the talk's rules
            overhead = time / parse time, as a percentage.
            """)

    @Argument(help: "A listings JSON file (make-listings).")
    var file: String

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let bytes = try BoundedReader.read(contentsOfFile: file, maxBytes: .max)
        let key = SigningKey.generate(.ed25519)
        let signature = try DetachedSignature.sign(bytes, with: key)
        let digest = try ExpectedDigest(.sha256, bytes: DigestAlgorithm.sha256.digest(of: bytes))
        let limits = Limits(maxInputBytes: .max)
        let policy = GatePolicy(
            maxBytes: .max, digest: digest, signature: .detached(signature, trusting: try TrustedKeys([key.verificationKey])),
            limits: limits)
        let parser = JSONParser(limits: limits)
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.limits = limits
        _ = try decoder.decode([Listing].self, from: .file(path: file), policy: policy)
        let medians = try timing.medians([
            { try BoundedReader.read(contentsOfFile: self.file, maxBytes: .max) },
            { try Gate.admit(.file(path: self.file), policy: policy) },
            { try Gate.admit(.bytes(bytes), policy: policy) },
            { try parser.parse(bytes) },
            { try decoder.decode([Listing].self, from: bytes) },
        ])
        let parse = medians[3]
        for (index, name) in ["vetted.read", "vetted.gate", "vetted.gate-checks", "vetted.parse", "vetted.decode-validate"].enumerated() {
            let throughput = Double(bytes.count) / medians[index] / 1e6
            print("\(name)\t\(String(format: "%.1f", throughput))\t\(String(format: "%.1f%%", medians[index] / parse * 100))")
        }
    }
}

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
        let child = try ChildProcess.run("sha256sum", [file])
        guard child.status == 0 else { throw ValidationError("sha256sum failed") }
        return String(child.text.prefix(64))
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

/// RFC 9421 verification of signed responses, against PyPI's http-message-signatures.
struct HTTPSignatureThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "httpsig",
        abstract: "Parse and verify N signed HTTP responses: vetted.http-verify against Python's http-message-signatures.",
        discussion: """
            Each response is a listing as JSON (about 330 bytes), with Content-Type, Content-Digest
            (SHA-256) and an Ed25519 RFC 9421 signature over @status, content-type and
            content-digest. Both sides parse the raw message, check the policy (those components
            covered, at most 300 s old), verify the signature and the body's digest. The Python
            side (Benchmarks/httpsig_verify.py) runs in its own process and times itself.
            Lines: name, messages per second, µs per message, ratio (Vetted's speed / the peer's).
            """)

    @Option(help: "How many responses.")
    var count = 1_000

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let key = SigningKey.generate(.ed25519)
        let body = Array(
            #"{"id":1,"name":"Guitar","description":"Acoustic guitar, barely used.","price":"120.00","sold":false,"url":"https://example.com/listings/1","tags":["music","acoustic"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
                .utf8)
        var messages: [[UInt8]] = []
        for index in 0..<count {
            var response = HTTPMessage(status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: body)
            response.body[7] = UInt8(ascii: "0") + UInt8(index % 10)  // not all the same bytes
            response.setContentDigest()
            try HTTPSignatures.sign(&response, covering: [.status, .field("content-type"), .field("content-digest")], with: key)
            messages.append(response.wireBytes)
        }
        let keys = try TrustedKeys([key.verificationKey])
        let policy = HTTPSignaturePolicy.response()
        let vetted: () throws -> Any? = {
            var verified = 0
            for bytes in messages {
                let message = try HTTPMessage.parse(bytes)
                verified += try HTTPSignatures.verify(message, trusting: keys, policy: policy).body?.bytes.count ?? 0
            }
            return verified
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("httpsig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("messages").path
        try Data(messages.flatMap { Array("\($0.count)\n".utf8) + $0 }).write(to: URL(fileURLWithPath: file))
        let pem = folder.appendingPathComponent("key.pub.pem").path
        try Data(try key.verificationKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: pem))

        var sides = [vetted]
        let peer = try MsgspecPeer(file: file, script: "httpsig_verify.py", arguments: [pem, key.keyID.rawValue])
        if let peer {
            guard peer.count == count else { throw ValidationError("the peer read \(peer.count) messages, not \(count)") }
            sides.append { ReportedSeconds(seconds: try peer.decodeOnce()) }
        }
        let medians = try timing.medians(sides)
        peer?.stop()
        func line(_ name: String, _ seconds: Double, _ peerSeconds: Double?) -> String {
            let ratio = peerSeconds.map { String(format: "%.2f", $0 / seconds) } ?? "-"
            return "\(name)\t\(String(format: "%.0f", Double(count) / seconds))\t\(String(format: "%.1f", seconds / Double(count) * 1e6))\t\(ratio)"
        }
        print(line("vetted.http-verify", medians[0], peer == nil ? nil : medians[1]))
        if peer != nil {
            print(line("python.http-message-signatures", medians[1], nil))
        } else {
            print("python.http-message-signatures\tskipped: \(MsgspecPeer.unavailable ?? "python3 not found") (pip install http-message-signatures)")
        }
    }
}

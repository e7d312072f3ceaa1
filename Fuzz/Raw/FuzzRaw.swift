// The raw stage's parsers under fuzzing: envelopes, detached signatures (binary
// and base64), key files and key rings (Vetted's lines and PEM), digest strings,
// the gate, and RFC 9421 HTTP messages with their signature fields. Any input
// must give a value or a VettedError — never a crash. The first byte picks the
// parser; the rest is its input. Run with scripts/fuzz.sh raw SECONDS.

import Foundation
import Vetted

/// A fixed key, so that seeds signed with it reach the signature check.
let signingKey: SigningKey? = try? SigningKey(.ed25519, rawRepresentation: [UInt8](repeating: 7, count: 32), keyID: KeyID("fuzz"))
let trusted: TrustedKeys? = signingKey.flatMap { try? TrustedKeys([$0.verificationKey]) }

func fuzzOne(_ input: [UInt8]) {
    guard let selector = input.first, let trusted else { return }
    let bytes = Array(input.dropFirst())
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        switch selector % 9 {
        case 0:
            let verified = try Envelope.open(bytes, trusting: trusted)
            precondition(verified.report.signedBy?.rawValue == "fuzz")
        case 1:
            let signature = try DetachedSignature(parsing: bytes)
            let again = try DetachedSignature(parsing: signature.bytes)
            precondition(again == signature, "a parsed signature must write back to the same bytes")
            _ = try signature.verify(Array("{}".utf8), trusting: trusted)
        case 2:
            _ = try SigningKey(fileText: text)
        case 3:
            _ = try TrustedKeys(fileText: text)
        case 4:
            _ = try ExpectedDigest(.sha256, hexOrBase64: text)
            _ = try DetachedSignature(base64: text)
        case 6:
            // An HTTP message, parsed and its signature verified under the response policy.
            let message = try HTTPMessage.parse(bytes, limits: HTTPMessageLimits(maxBodyBytes: 4_096))
            let verified = try HTTPSignatures.verify(message, trusting: trusted, policy: .response(maximumAge: nil), now: fuzzNow)
            precondition(verified.keyID.rawValue == "fuzz" && verified.body?.bytes == message.body)
        case 7:
            let key = try SigningKey(pemRepresentation: text)
            _ = try SigningKey(pemRepresentation: try key.pemRepresentation)
        case 8:
            _ = try VerificationKey(pemRepresentation: text)
        default:
            _ = try Gate.admit(.bytes(bytes), policy: GatePolicy(maxBytes: 4_096, signature: .envelope(trusting: trusted)))
        }
    } catch {
        _ = error.description
    }
}

let fuzzNow = Date(timeIntervalSince1970: 1_800_000_000)

/// A response signed with the fuzz key, as `curl -i` would print it.
func signedResponse(_ key: SigningKey) throws -> [UInt8] {
    var response = HTTPMessage(status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: Array(#"{"id":1}"#.utf8))
    response.setContentDigest()
    try HTTPSignatures.sign(&response, covering: [.status, .field("content-type"), .field("content-digest")], with: key, created: fuzzNow)
    return response.wireBytes
}

/// Seeds that reach past the format checks: a signed envelope, a signature, key files.
func writeSeeds(to folder: String) throws {
    guard let signingKey else { return }
    let payload = Array(#"[{"id":1,"tags":["music"]}]"#.utf8)
    let seeds: [(String, [UInt8])] = [
        ("envelope", [0] + (try Envelope.seal(payload, with: signingKey))),
        ("signature", [1] + (try DetachedSignature.sign(Array("{}".utf8), with: signingKey)).bytes),
        ("private-key", [2] + Array(signingKey.fileText.utf8)),
        ("key-ring", [3] + Array(("# ring\n" + signingKey.verificationKey.fileText).utf8)),
        ("base64-signature", [4] + Array((try DetachedSignature.sign(payload, with: signingKey)).base64.utf8)),
        ("gate-envelope", [5] + (try Envelope.seal(payload, with: signingKey))),
        ("http-response", [6] + (try signedResponse(signingKey))),
        ("pem-private-key", [7] + Array((try signingKey.pemRepresentation).utf8)),
        ("pem-public-key", [8] + Array((try signingKey.verificationKey.pemRepresentation).utf8)),
    ]
    for (name, bytes) in seeds {
        try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaw(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzOne(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
#else
@main
struct Replay {
    /// `fuzz-raw FILE…` runs each file through the fuzz body; `fuzz-raw --write-seeds DIR` writes the seeds.
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--write-seeds", arguments.count == 2 {
            try writeSeeds(to: arguments[1])
            return
        }
        for path in arguments {
            fuzzOne(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        print("replayed \(arguments.count) inputs")
    }
}
#endif

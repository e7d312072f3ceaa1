public import ArgumentParser
import Foundation
public import Vetted

/// `--sha256`, `--signature`, `--key`, `--envelope`: the raw stage of `vet json`.
struct GateOptions: ParsableArguments {
    @Option(help: "The SHA-256 digest the input must have, in hex or base64.")
    var sha256: String?

    @Option(help: "A detached signature file (binary or base64) that must verify with a trusted --key.")
    var signature: String?

    @Option(name: .customLong("key"), help: "A trusted public key file or key ring (repeat for several).")
    var keys: [String] = []

    @Flag(help: "The input is a signed envelope: its signature is checked, then its payload is parsed.")
    var envelope = false

    func validate() throws {
        if signature != nil, envelope { throw ValidationError("--signature and --envelope exclude each other") }
        if signature != nil || envelope, keys.isEmpty { throw ValidationError("a signature needs at least one trusted --key") }
        if !keys.isEmpty, signature == nil, !envelope { throw ValidationError("--key needs --signature or --envelope") }
        if let sha256 { _ = try Self.digest(sha256) }
    }

    static func digest(_ text: String) throws -> ExpectedDigest {
        do {
            return try ExpectedDigest(.sha256, hexOrBase64: text)
        } catch {
            throw ValidationError("--sha256: \(error.message)")
        }
    }

    func policy(limits: Limits) throws -> GatePolicy {
        var policy = GatePolicy(limits: limits)
        if let sha256 { policy.digest = try Self.digest(sha256) }
        if let signature {
            policy.signature = .detached(try Self.detachedSignature(signature), trusting: try Self.trustedKeys(keys))
        } else if envelope {
            policy.signature = .envelope(trusting: try Self.trustedKeys(keys))
        }
        return policy
    }

    /// Every key in every file, as one trusted set.
    static func trustedKeys(_ paths: [String]) throws -> TrustedKeys {
        var keys = try TrustedKeys([])
        for path in paths {
            let text = String(decoding: try InputReader.auxiliary(path, what: "key"), as: UTF8.self)
            do {
                let ring = try TrustedKeys(fileText: text)
                for id in ring.keyIDs { if let key = ring[id] { try keys.insert(key) } }
            } catch {
                throw ValidationError("the key file \(Diagnostics.displayName(of: path)): \(error.message)")
            }
        }
        return keys
    }

    /// A detached signature file: the binary form, or its base64 on one line.
    static func detachedSignature(_ path: String) throws -> DetachedSignature {
        let bytes = try InputReader.auxiliary(path, what: "signature")
        do {
            if bytes.starts(with: Array("VSIG".utf8)) { return try DetachedSignature(parsing: bytes) }
            return try DetachedSignature(base64: String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw ValidationError("the signature file \(Diagnostics.displayName(of: path)): \(error.message)")
        }
    }
}

extension DigestAlgorithm: ExpressibleByArgument {}
extension KeyFileFormat: ExpressibleByArgument {}

extension SignatureAlgorithm: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { allCases.map(\.name) }
}

/// `vet digest FILE…`: SHA-2 digests, streamed, in `sha256sum`'s format.
struct DigestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "digest",
        abstract: "Print the SHA-256 (or SHA-384, SHA-512) digest of files, hashed as they stream.",
        discussion: """
            Prints `DIGEST  FILE` per file, as sha256sum does. With --expect, checks the digest \
            instead (in constant time) and exits 1 when it differs.

            Exit codes: 0 done (or matching), 1 mismatch or too large, 64 usage error, 74 unreadable input.
            """)

    @Argument(help: "Files to hash; - for standard input.")
    var files: [String] = ["-"]

    @Option(help: "sha256, sha384 or sha512.")
    var algorithm: DigestAlgorithm = .sha256

    @Flag(help: "Print base64 instead of hex.")
    var base64 = false

    @Option(help: "The digest the (single) file must have, in hex or base64.")
    var expect: String?

    @Option(help: "Largest input in bytes.")
    var maxBytes = Int.max

    func validate() throws {
        if expect != nil, files.count != 1 { throw ValidationError("--expect checks exactly one file") }
        if let expect { _ = try expected(expect) }
    }

    private func expected(_ text: String) throws -> ExpectedDigest {
        do {
            return try ExpectedDigest(algorithm, hexOrBase64: text)
        } catch {
            throw ValidationError("--expect: \(error.message)")
        }
    }

    func run() throws {
        for file in files {
            let name = Diagnostics.displayName(of: file)
            let digest: [UInt8]
            do {
                digest =
                    file == "-"
                    ? try algorithm.digest(of: .standardInput, maxBytes: maxBytes)
                    : try algorithm.digest(ofFile: file, maxBytes: maxBytes)
            } catch {
                throw Diagnostics(input: file, format: .text, quiet: false).fail(error)
            }
            if let expect {
                guard try expected(expect).matches(digest) else {
                    try Output.line("\(name): \(algorithm) digest differs from the expected one")
                    throw VetExit.invalidData
                }
                try Output.line("\(name): OK")
            } else {
                try Output.line("\(base64 ? Data(digest).base64EncodedString() : Hex.encode(digest))  \(name)")
            }
        }
    }
}

/// `vet keygen`: a new signing key and its public half.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create a signing key: OUTPUT.key (private, mode 0600) and OUTPUT.pub (public).",
        discussion: """
            Key files are one line: `vetted-private-key-v1 ALGORITHM KEYID BASE64` (public: \
            vetted-public-key-v1). An HMAC secret is both keys: only OUTPUT.key is written, and it \
            is what verifiers pass to --key. Existing files are never overwritten.

            With --format pem (Ed25519 and P-256): OUTPUT.key.pem (PKCS#8, mode 0600) and \
            OUTPUT.pub.pem (SubjectPublicKeyInfo), which OpenSSL reads. PEM carries no key id: \
            every reader derives the same one from the key. Every command that takes --key \
            reads either format.
            """)

    @Option(help: "ed25519, p256 or hmac-sha256.")
    var algorithm: SignatureAlgorithm = .ed25519

    @Option(help: "The key id written into signatures (default: derived from the public key).")
    var keyID: String?

    @Option(name: .shortAndLong, help: "Path prefix of the files to write.")
    var output = "vetted"

    @Option(help: "vetted (one line, with the key id) or pem (PKCS#8 and SubjectPublicKeyInfo).")
    var format: KeyFileFormat = .vetted

    func validate() throws {
        if format == .pem, algorithm.isSymmetric {
            throw ValidationError("--format pem: an HMAC secret has no PEM form; use --format vetted")
        }
        if format == .pem, keyID != nil {
            throw ValidationError("--key-id: a PEM file carries no key id; readers derive it from the key")
        }
    }

    func run() throws {
        let id: KeyID?
        do {
            id = try keyID.map { (text) throws(VettedError) in try KeyID(text) }
        } catch {
            throw ValidationError("--key-id: \(error.message)")
        }
        let key = SigningKey.generate(algorithm, keyID: id)
        let suffix = format == .pem ? ".pem" : ""
        let privatePath = output + ".key" + suffix
        let publicPath = output + ".pub" + suffix
        do {
            try key.writeKeyFiles(privateKeyPath: privatePath, publicKeyPath: publicPath, format: format)
        } catch {
            throw ValidationError(error.message)
        }
        try Output.line("key id \(key.keyID) (\(algorithm)): \(privatePath)\(algorithm.isSymmetric ? " (secret: share it only with verifiers)" : ", \(publicPath)")")
    }
}

/// `vet sign --key KEY FILE`: a detached signature, or an envelope.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a file: a detached signature (FILE.sig) or, with --envelope, FILE.envelope.",
        discussion: "The formats are documented byte by byte in the DocC article Raw data.")

    @Option(help: "The private (or HMAC secret) key file.")
    var key: String

    @Argument(help: "The file to sign; - for standard input.")
    var file: String

    @Flag(help: "Write an envelope (payload and signature in one file) instead of a detached signature.")
    var envelope = false

    @Flag(help: "Write the detached signature as base64 text (for an HTTP header).")
    var base64 = false

    @Option(name: .shortAndLong, help: "Where to write (default FILE.sig or FILE.envelope; - for standard output).")
    var output: String?

    @Option(help: "Largest input in bytes.")
    var maxBytes = 1 << 30

    func run() throws {
        let signingKey: SigningKey
        do {
            signingKey = try SigningKey(fileText: String(decoding: try InputReader.auxiliary(key, what: "key"), as: UTF8.self))
        } catch let error as VettedError {
            throw ValidationError("the key file \(Diagnostics.displayName(of: key)): \(error.message)")
        }
        let diagnostics = Diagnostics(input: file, format: .text, quiet: false)
        let payload = try InputReader.admit(file, policy: GatePolicy(maxBytes: maxBytes), diagnostics: diagnostics).bytes
        let bytes: [UInt8]
        if envelope {
            bytes = try Envelope.seal(payload, with: signingKey)
        } else {
            let signature = try DetachedSignature.sign(payload, with: signingKey)
            bytes = base64 ? Array((signature.base64 + "\n").utf8) : signature.bytes
        }
        let destination = output ?? (file == "-" ? "-" : file + (envelope ? ".envelope" : ".sig"))
        if destination == "-" {
            do { try Output.write(bytes) } catch { throw Output.failed(error) }
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: destination), options: .atomic)
            try Output.line("signed with key \(signingKey.keyID) (\(signingKey.algorithm)): \(Diagnostics.displayName(of: destination))")
        }
    }
}

/// `vet verify --key PUB FILE [SIG]`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a detached signature (FILE SIG) or an envelope (FILE alone) against trusted keys.",
        discussion: "Exit codes: 0 verified, 1 not verified, 64 usage error, 74 unreadable input.")

    @Option(name: .customLong("key"), help: "A trusted public key file or key ring (repeat for several).")
    var keys: [String]

    @Argument(help: "The signed file, or the envelope.")
    var file: String

    @Argument(help: "The detached signature; leave out when FILE is an envelope.")
    var signature: String?

    @Option(help: "For an envelope: write its payload here once verified (- for standard output).")
    var extract: String?

    @Option(help: "Largest input in bytes.")
    var maxBytes = 1 << 30

    func validate() throws {
        if extract != nil, signature != nil { throw ValidationError("--extract is for envelopes") }
    }

    func run() throws {
        let trusted = try GateOptions.trustedKeys(keys)
        let signaturePolicy: GatePolicy.Signature =
            if let signature {
                .detached(try GateOptions.detachedSignature(signature), trusting: trusted)
            } else {
                .envelope(trusting: trusted)
            }
        let diagnostics = Diagnostics(input: file, format: .text, quiet: false)
        let verified = try InputReader.admit(
            file, policy: GatePolicy(maxBytes: maxBytes, signature: signaturePolicy), diagnostics: diagnostics)
        if let extract {
            if extract == "-" {
                do { try Output.write(verified.bytes) } catch { throw Output.failed(error) }
                return
            }
            try Data(verified.bytes).write(to: URL(fileURLWithPath: extract), options: .atomic)
        }
        let signer = verified.report.signedBy.map(\.rawValue) ?? "?"
        let message = "\(Diagnostics.displayName(of: file)): verified, signed by key \(Excerpt.escape(signer, quotes: false)), \(verified.bytes.count) bytes\n"
        try? FileHandle.standardError.write(contentsOf: Array(message.utf8))
    }
}

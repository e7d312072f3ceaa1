import ArgumentParser
import Foundation
import Vetted

/// `vet verify-http --key PUB FILE|-`: an RFC 9421 signature on a raw HTTP message.
struct VerifyHTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-http",
        abstract: "Check the RFC 9421 signature and Content-Digest of a raw HTTP response (as `curl -i` prints it) or request.",
        discussion: """
            The signature must verify with a trusted --key and satisfy the policy: it covers every \
            --require component (default: @status and content-type for a response; @method, \
            @authority and @path for a request) and content-digest (unless --no-content-digest), \
            whose value the body must match; it is at most --max-age seconds old. Prints what was \
            covered and by which key, or the defect.

            Exit codes: 0 verified, 1 not verified, 64 usage error, 74 unreadable input.
            """)

    @Option(name: .customLong("key"), help: "A trusted public key file (Vetted's format or PEM) or key ring (repeat for several).")
    var keys: [String]

    @Option(help: "The id of the one --key (a PEM file carries none; default: derived from the key).")
    var keyID: String?

    @Argument(help: "The raw HTTP message; - for standard input.")
    var file: String

    @Option(name: .customLong("require"), help: "A component the signature must cover: @status, @method, a field name… (repeat).")
    var required: [String] = []

    @Flag(help: "Do not require content-digest to be covered (the body is then not verified).")
    var noContentDigest = false

    @Option(help: "Oldest signature accepted, in seconds (0: any age).")
    var maxAge = 300

    @Option(help: "Allowed clock difference, in seconds.")
    var clockSkew = 60

    @Option(help: "The tag the signature must carry.")
    var tag: String?

    @Option(help: "Check only the signature with this label.")
    var label: String?

    @Option(help: "The time to check against, in seconds since 1970 (default: now).")
    var now: Int64?

    @Option(help: "For a request: the scheme of its target URI.")
    var scheme = "https"

    @Option(help: "text, or json (one object on standard output).")
    var format: DiagnosticFormat = .text

    @Option(help: "Largest input in bytes.")
    var maxBytes = 16 << 20

    func validate() throws {
        if keyID != nil, keys.count != 1 { throw ValidationError("--key-id names the key of exactly one --key") }
        if maxAge < 0 || clockSkew < 0 { throw ValidationError("--max-age and --clock-skew are zero or more") }
        for text in required {
            do {
                _ = try HTTPComponent(text)
            } catch {
                throw ValidationError("--require \(text): \(error.message)")
            }
        }
    }

    func run() throws {
        var trusted = try GateOptions.trustedKeys(keys)
        if let keyID, let only = trusted.keyIDs.first, trusted.keyIDs.count == 1, let key = trusted[only] {
            do {
                trusted = try TrustedKeys([VerificationKey(key.algorithm, rawRepresentation: key.rawRepresentation, keyID: KeyID(keyID))])
            } catch {
                throw ValidationError("--key-id: \(error.message)")
            }
        }
        let diagnostics = Diagnostics(input: file, format: format, quiet: false)
        let bytes = try InputReader.admit(file, policy: GatePolicy(maxBytes: maxBytes), diagnostics: diagnostics).bytes
        let verified: VerifiedHTTPMessage
        do {
            let message = try HTTPMessage.parse(bytes, scheme: scheme)
            let components: [HTTPComponent]
            if required.isEmpty {
                if case .response = message.start {
                    components = [.status, .field("content-type")]
                } else {
                    components = [.method, .authority, .path]
                }
            } else {
                components = try required.map { (text) throws(VettedError) in try HTTPComponent(text) }
            }
            let policy = HTTPSignaturePolicy(
                requiring: components, requireContentDigest: !noContentDigest, maximumAge: maxAge == 0 ? nil : .seconds(maxAge),
                clockSkew: .seconds(clockSkew), expectedTag: tag, label: label)
            verified = try HTTPSignatures.verify(
                message, trusting: trusted, policy: policy, now: now.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date())
        } catch {
            throw diagnostics.fail(error)
        }
        try report(verified)
    }

    private func report(_ verified: VerifiedHTTPMessage) throws {
        let name = Diagnostics.displayName(of: file)
        let covered = verified.coveredComponents.map(\.name)
        switch format {
        case .text:
            var lines = [
                "\(name): verified: signature \(verified.label) by key \(verified.keyID) (\(verified.algorithm.httpSignatureName))",
                "  covers: \(covered.joined(separator: " "))",
            ]
            if let created = verified.parameters.created { lines.append("  created: \(created)") }
            if let expires = verified.parameters.expires { lines.append("  expires: \(expires)") }
            if let tag = verified.parameters.tag { lines.append("  tag: \(Excerpt.escape(tag))") }
            if let body = verified.body, let digest = body.report.digest {
                lines.append("  body: \(body.bytes.count) bytes, \(digest.algorithm) matches Content-Digest")
            } else {
                lines.append("  body: not covered (content-digest is not signed)")
            }
            try Output.line(lines.joined(separator: "\n"))
        case .json:
            var object: JSONObject = [
                "valid": true, "label": .string(verified.label), "keyID": .string(verified.keyID.rawValue),
                "algorithm": .string(verified.algorithm.httpSignatureName), "covers": .array(covered.map { .string($0) }),
            ]
            if let created = verified.parameters.created { object["created"] = .number(JSONNumber(Int(created))) }
            if let body = verified.body { object["bodyBytes"] = .number(JSONNumber(body.bytes.count)) }
            try Output.line(JSONValue.object(object).jsonString())
        }
    }
}

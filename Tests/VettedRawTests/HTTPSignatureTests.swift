import Foundation
import Testing
import VettedCore
import VettedRaw
import VettedTestSupport

/// RFC 9421 Appendix B: its keys (B.1) and its test messages (B.2), as the RFC prints them.
enum RFC9421 {
    static let ed25519Public = """
        -----BEGIN PUBLIC KEY-----
        MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=
        -----END PUBLIC KEY-----
        """
    static let ed25519Private = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF
        -----END PRIVATE KEY-----
        """
    static let p256Public = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf
        w0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
        -----END PUBLIC KEY-----
        """
    /// SEC 1, as the RFC gives it.
    static let p256Private = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIFKbhfNZfpDsW43+0+JjUr9K+bTeuxopu653+hBaXGA7oAoGCCqGSM49
        AwEHoUQDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lfw0EkjqF7xB4FivAxzic30tMM
        4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
        -----END EC PRIVATE KEY-----
        """
    static let sharedSecret = "uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ=="

    static let request = """
        POST /foo?param=Value&Pet=dog HTTP/1.1\r
        Host: example.com\r
        Date: Tue, 20 Apr 2021 02:07:55 GMT\r
        Content-Type: application/json\r
        Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:\r
        Content-Length: 18\r
        \r
        {"hello": "world"}
        """
    static let response = """
        HTTP/1.1 200 OK\r
        Date: Tue, 20 Apr 2021 02:07:56 GMT\r
        Content-Type: application/json\r
        Content-Digest: sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:\r
        Content-Length: 23\r
        \r
        {"message": "good dog"}
        """
    static let created = Date(timeIntervalSince1970: 1_618_884_473)

    static func message(_ text: String) throws -> HTTPMessage { try HTTPMessage.parse(Array(text.utf8)) }
}

@Suite struct HTTPComponentNameTests {
    /// `.field(_:)` takes any name; signing with one that is not a token is refused.
    @Test func aFieldNameThatIsNotATokenIsRefusedWhenSigning() throws {
        let key = try SigningKey(pemRepresentation: RFC9421.ed25519Private, keyID: KeyID("test-key-ed25519"))
        for name in ["content type", "x\"y", "", "naïve"] {
            var message = try RFC9421.message(RFC9421.request)
            do {
                try HTTPSignatures.sign(&message, label: "sig", covering: [.method, .field(name)], with: key, created: RFC9421.created)
                Issue.record("signed with the field \(name)")
            } catch {
                #expect(error.code == .malformedHTTPSignature)
            }
            #expect(message.values(of: "signature").isEmpty)
            #expect(throws: VettedError.self) { try HTTPComponent(name) }
        }
    }
}

@Suite struct HTTPSignatureVectorTests {
    /// B.2.6: Ed25519 is deterministic, so the signature is the RFC's byte for byte; and it verifies.
    @Test func ed25519Request() throws {
        let key = try SigningKey(pemRepresentation: RFC9421.ed25519Private, keyID: KeyID("test-key-ed25519"))
        var message = try RFC9421.message(RFC9421.request)
        try HTTPSignatures.sign(
            &message, label: "sig-b26",
            covering: [.field("date"), .method, .path, .authority, .field("content-type"), .field("content-length")],
            with: key, created: RFC9421.created, includeAlgorithm: false)
        #expect(
            message.values(of: "signature-input") == [
                #"sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519""#
            ])
        #expect(
            message.values(of: "signature") == [
                "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:"
            ])
        #expect(
            try HTTPSignatures.signatureBase(of: message, label: "sig-b26") == """
                "date": Tue, 20 Apr 2021 02:07:55 GMT
                "@method": POST
                "@path": /foo
                "@authority": example.com
                "content-type": application/json
                "content-length": 18
                "@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"
                """)
        let keys = try TrustedKeys([VerificationKey(pemRepresentation: RFC9421.ed25519Public, keyID: KeyID("test-key-ed25519"))])
        let policy = HTTPSignaturePolicy(requiring: [.method, .path, .authority], requireContentDigest: false, maximumAge: nil)
        let verified = try HTTPSignatures.verify(message, trusting: keys, policy: policy, now: RFC9421.created)
        #expect(verified.label == "sig-b26" && verified.keyID.rawValue == "test-key-ed25519" && verified.algorithm == .ed25519)
        #expect(verified.body == nil)  // content-digest is not covered: nothing vouches for the body
    }

    /// B.2.5: HMAC-SHA256 is deterministic too.
    @Test func hmacRequest() throws {
        let secret = try #require(Data(base64Encoded: RFC9421.sharedSecret))
        let key = try SigningKey(.hmacSHA256, rawRepresentation: Array(secret), keyID: KeyID("test-shared-secret"))
        var message = try RFC9421.message(RFC9421.request)
        try HTTPSignatures.sign(
            &message, label: "sig-b25", covering: [.field("date"), .authority, .field("content-type")], with: key,
            created: RFC9421.created, includeAlgorithm: false)
        #expect(message.values(of: "signature") == ["sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:"])
        let policy = HTTPSignaturePolicy(requiring: [.authority], requireContentDigest: false, maximumAge: nil)
        let verified = try HTTPSignatures.verify(
            message, trusting: TrustedKeys([key.verificationKey]), policy: policy, now: RFC9421.created)
        #expect(verified.algorithm == .hmacSHA256)
    }

    /// B.2.4: ECDSA signatures are randomized, so the RFC's is verified (with its
    /// key read from PEM), and the body is checked against its SHA-512 Content-Digest.
    @Test func ecdsaResponse() throws {
        var message = try RFC9421.message(RFC9421.response)
        message.append(
            "Signature-Input",
            #"sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256""#)
        message.append(
            "Signature", "sig-b24=:wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==:")
        let keys = try TrustedKeys([VerificationKey(pemRepresentation: RFC9421.p256Public, keyID: KeyID("test-key-ecc-p256"))])
        let verified = try HTTPSignatures.verify(message, trusting: keys, policy: .response(maximumAge: nil), now: RFC9421.created)
        #expect(verified.algorithm == .p256)
        #expect(verified.body?.bytes == Array(#"{"message": "good dog"}"#.utf8))
        #expect(verified.body?.report.digest?.algorithm == .sha512)

        // The RFC's private key (SEC 1) signs a response that the RFC's public key verifies.
        let signer = try SigningKey(pemRepresentation: RFC9421.p256Private, keyID: KeyID("test-key-ecc-p256"))
        var fresh = try RFC9421.message(RFC9421.response)
        try HTTPSignatures.sign(
            &fresh, covering: [.status, .field("content-type"), .field("content-digest")], with: signer, created: RFC9421.created)
        _ = try HTTPSignatures.verify(fresh, trusting: keys, policy: .response(maximumAge: nil), now: RFC9421.created)
    }

    /// The B.2 request's Content-Digest is the SHA-512 of its body (RFC 9530).
    @Test func requestDigest() throws {
        let message = try RFC9421.message(RFC9421.request)
        let key = try SigningKey(pemRepresentation: RFC9421.ed25519Private, keyID: KeyID("k"))
        var signed = message
        try HTTPSignatures.sign(&signed, covering: [.method, .targetURI, .field("content-digest")], with: key, created: RFC9421.created)
        let verified = try HTTPSignatures.verify(
            signed, trusting: TrustedKeys([key.verificationKey]), policy: HTTPSignaturePolicy(requiring: [.targetURI], maximumAge: nil),
            now: RFC9421.created)
        #expect(verified.body?.bytes == Array(#"{"hello": "world"}"#.utf8))
    }

    /// Derived components of the RFC's request (§2.2 examples).
    @Test func derivedComponents() throws {
        var message = try RFC9421.message(RFC9421.request)
        let key = SigningKey.generate(.ed25519, keyID: try KeyID("k"))
        try HTTPSignatures.sign(
            &message, covering: [.method, .targetURI, .authority, .scheme, .requestTarget, .path, .query], with: key,
            created: RFC9421.created)
        let base = try HTTPSignatures.signatureBase(of: message, label: "sig1")
        #expect(
            base.split(separator: "\n").dropLast() == [
                #""@method": POST"#, #""@target-uri": https://example.com/foo?param=Value&Pet=dog"#,
                #""@authority": example.com"#, #""@scheme": https"#, #""@request-target": /foo?param=Value&Pet=dog"#,
                #""@path": /foo"#, #""@query": ?param=Value&Pet=dog"#,
            ])
        let other = HTTPMessage(method: "GET", targetURI: "HTTPS://Example.COM:8443")
        var signedOther = other
        try HTTPSignatures.sign(&signedOther, covering: [.authority, .path, .query], with: key, created: RFC9421.created)
        #expect(
            try HTTPSignatures.signatureBase(of: signedOther, label: "sig1").hasPrefix(
                "\"@authority\": example.com:8443\n\"@path\": /\n\"@query\": ?\n"))
    }
}

/// Every kind of tampering with a signed response, each caught with its code.
@Suite struct HTTPSignatureTamperTests {
    static let key = SigningKey.generate(.ed25519)
    static var id: String { key.keyID.rawValue }
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func signed(
        covering: [HTTPComponent] = [.status, .field("content-type"), .field("content-digest")], created: Date = now,
        expires: Date? = nil, tag: String? = nil
    ) throws -> HTTPMessage {
        var message = HTTPMessage(
            status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: Array(#"{"id":1}"#.utf8))
        message.setContentDigest()
        try HTTPSignatures.sign(&message, covering: covering, with: key, created: created, expires: expires, tag: tag)
        return message
    }

    static func verify(_ message: HTTPMessage, policy: HTTPSignaturePolicy = .response()) throws(VettedError) {
        _ = try HTTPSignatures.verify(message, trusting: TrustedKeys([key.verificationKey]), policy: policy, now: now)
    }

    static func replacing(_ message: HTTPMessage, _ name: String, with value: String) -> HTTPMessage {
        var copy = message
        copy.removeFields(named: name)
        copy.append(name, value)
        return copy
    }

    static func code(_ message: HTTPMessage, policy: HTTPSignaturePolicy = .response()) -> VettedError.Code? {
        thrownError { () throws(VettedError) in try verify(message, policy: policy) }?.code
    }

    @Test func untouchedVerifies() throws {
        let verified = try HTTPSignatures.verify(
            Self.signed(), trusting: TrustedKeys([Self.key.verificationKey]), policy: .response(), now: Self.now)
        #expect(verified.coveredComponents == [.status, .field("content-type"), .field("content-digest")])
        #expect(verified.parameters.created == 1_800_000_000)
        #expect(verified.parameters.algorithm == "ed25519")
        #expect(verified.body?.report.signedBy == Self.key.keyID)
    }

    @Test func eachComponent() throws {
        let message = try Self.signed()
        var status = message
        status.start = .response(status: 201)
        #expect(Self.code(status) == .signatureMismatch)
        #expect(Self.code(Self.replacing(message, "Content-Type", with: "text/html")) == .signatureMismatch)
        var body = message
        body.body = Array(#"{"id":2}"#.utf8)
        let bodyError = thrownError { () throws(VettedError) in try Self.verify(body) }
        #expect(bodyError?.code == .digestMismatch && bodyError?.path.description == "$[\"content-digest\"][\"sha-256\"]")
        var digest = body
        digest.setContentDigest()  // a digest recomputed to match the new body: the signature no longer does
        #expect(Self.code(digest) == .signatureMismatch)
    }

    @Test func eachParameter() throws {
        let message = try Self.signed(tag: "junk")
        let input = try #require(message.values(of: "signature-input").first)
        let changes: [(String, String, VettedError.Code)] = [
            ("created=1800000000", "created=1800000001", .signatureMismatch),
            ("keyid=\"\(Self.id)\"", #"keyid="server-2027""#, .unknownKeyID),
            (#"alg="ed25519""#, #"alg="hmac-sha256""#, .algorithmMismatch),
            (#"alg="ed25519""#, #"alg="rsa-pss-sha512""#, .unsupportedAlgorithm),
            (#"tag="junk""#, #"tag="other""#, .unexpectedSignatureTag),
            (#"tag="junk""#, #"tag="junk";nonce="abc""#, .signatureMismatch),
            (#"tag="junk""#, #"tag="junk";extra=1"#, .malformedHTTPSignature),
            (";keyid=\"\(Self.id)\"", "", .missingSignatureParameter),
            ("created=1800000000;", "", .missingSignatureParameter),
            ("created=1800000000", #"created="1800000000""#, .malformedHTTPSignature),
        ]
        for (from, to, expected) in changes {
            let changed = Self.replacing(message, "Signature-Input", with: input.replacingOccurrences(of: from, with: to))
            #expect(Self.code(changed, policy: .response(expectedTag: "junk")) == expected, "\(from) → \(to)")
        }
    }

    @Test func labelAlgorithmAndKey() throws {
        let message = try Self.signed()
        let signature = try #require(message.values(of: "signature").first)
        // The label of one field changed: the two no longer pair up.
        let relabelled = Self.replacing(message, "Signature", with: signature.replacingOccurrences(of: "sig1=", with: "sig2="))
        #expect(Self.code(relabelled) == .missingHTTPSignature)
        #expect(Self.code(relabelled, policy: HTTPSignaturePolicy(requiring: [.status], label: "sig2")) == .missingHTTPSignature)
        // Signed by another key that claims the trusted key's id.
        var forged = HTTPMessage(status: 200, fields: [.init(name: "Content-Type", value: "application/json")], body: Array(#"{"id":1}"#.utf8))
        forged.setContentDigest()
        try HTTPSignatures.sign(
            &forged, covering: [.status, .field("content-type"), .field("content-digest")],
            with: SigningKey.generate(.ed25519, keyID: Self.key.keyID), created: Self.now)
        #expect(Self.code(forged) == .signatureMismatch)
        // The same key id, but a P-256 signature over the same base.
        var p256 = forged
        p256.removeFields(named: "signature")
        p256.removeFields(named: "signature-input")
        try HTTPSignatures.sign(
            &p256, covering: [.status, .field("content-type"), .field("content-digest")],
            with: SigningKey.generate(.p256, keyID: Self.key.keyID), created: Self.now)
        #expect(Self.code(p256) == .algorithmMismatch)
        // A signature value that is not a byte sequence.
        #expect(Self.code(Self.replacing(message, "Signature", with: "sig1=\"AAAA\"")) == .malformedHTTPSignature)
        // The same signature bytes under another base64 spelling (non-zero padding bits): refused, not accepted.
        let last = try #require(signature.dropLast(3).last)  // the character before "==:"
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let sibling = try #require(alphabet.firstIndex(of: last).map { alphabet[($0 / 16) * 16 + ($0 % 16 == 0 ? 1 : 0)] })
        let respelled = String(signature.dropLast(4)) + String(sibling) + "==:"
        #expect(respelled != signature)
        #expect(Self.code(Self.replacing(message, "Signature", with: respelled)) == .malformedHTTPSignature)
        // Truncated signature bytes.
        #expect(Self.code(Self.replacing(message, "Signature", with: "sig1=:AAAA:")) == .signatureMismatch)
    }

    @Test func duplicatedAndMissingFields() throws {
        let message = try Self.signed()
        let input = try #require(message.values(of: "signature-input").first)
        var twice = message
        twice.append("Signature-Input", input)  // the same label twice: RFC 8941 would keep the last silently
        let duplicate = thrownError { () throws(VettedError) in try Self.verify(twice) }
        #expect(duplicate?.code == .malformedHTTPSignature && duplicate?.path.description == "$[\"signature-input\"]")
        var type = message
        type.append("Content-Type", "text/html")  // a second line changes the covered value
        #expect(Self.code(type) == .signatureMismatch)
        var digests = message
        digests.append("Content-Digest", try #require(message.values(of: "content-digest").first))
        #expect(Self.code(digests) == .signatureMismatch)

        var noSignature = message
        noSignature.removeFields(named: "Signature")
        #expect(Self.code(noSignature) == .missingHTTPSignature)
        var noInput = message
        noInput.removeFields(named: "signature-input")
        #expect(Self.code(noInput) == .missingHTTPSignature)
        var noType = message
        noType.removeFields(named: "content-type")
        let missing = thrownError { () throws(VettedError) in try Self.verify(noType) }
        #expect(missing?.code == .missingComponent && missing?.path.description == "$[\"content-type\"]")
    }

    @Test func coverageAndTime() throws {
        // Covers something, but not what the policy requires.
        let partial = try Self.signed(covering: [.status])
        let uncovered = thrownError { () throws(VettedError) in try Self.verify(partial) }
        #expect(uncovered?.code == .uncoveredComponent && uncovered?.message.contains("content-type") == true)
        // A valid signature over no component at all (the signer here refuses to make one, so it is made by hand).
        var empty = HTTPMessage(status: 200, fields: [.init(name: "Content-Type", value: "application/json")])
        let parameters = "();created=1800000000;keyid=\"\(Self.id)\""
        let signature = try Self.key.signature(for: Array("\"@signature-params\": \(parameters)".utf8))
        empty.append("Signature-Input", "sig1=\(parameters)")
        empty.append("Signature", "sig1=:\(Data(signature).base64EncodedString()):")
        let nothing = thrownError { () throws(VettedError) in try Self.verify(empty) }
        #expect(nothing?.code == .uncoveredComponent && nothing?.message.contains("covers nothing") == true)
        #expect(Self.code(empty, policy: HTTPSignaturePolicy(requiring: [], requireContentDigest: false)) == .uncoveredComponent)

        #expect(Self.code(try Self.signed(created: Self.now - 3_600)) == .signatureExpired)
        #expect(Self.code(try Self.signed(created: Self.now + 3_600)) == .signatureNotYetValid)
        #expect(Self.code(try Self.signed(created: Self.now - 10, expires: Self.now - 120)) == .signatureExpired)
        try Self.verify(try Self.signed(created: Self.now + 30))  // within the clock skew
        #expect(Self.code(try Self.signed(tag: "elsewhere"), policy: .response(expectedTag: "junk")) == .unexpectedSignatureTag)
    }

    @Test func limitsAndBadValues() throws {
        let message = try Self.signed()
        let huge = Self.replacing(message, "Signature-Input", with: String(repeating: "a", count: 9_000))
        #expect(Self.code(huge) == .httpFieldTooLarge)
        let many = (0..<9).map { #"s\#($0)=("@status");keyid="x""# }.joined(separator: ", ")
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: many)) == .tooManyHTTPSignatures)
        let components = (0..<33).map { "\"x\($0)\"" }.joined(separator: " ")
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\(components))")) == .tooManyCoveredComponents)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"@query-param\";name=\"a\")")) == .unsupportedComponent)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"@frobnicate\")")) == .unsupportedComponent)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"Content-Type\")")) == .malformedHTTPSignature)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"@status\" \"@status\")")) == .malformedHTTPSignature)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"@method\");keyid=\"\(Self.id)\";created=1800000000"))
            == .uncoveredComponent)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=((")) == .malformedHTTPSignature)
        #expect(Self.code(Self.replacing(message, "Signature-Input", with: "sig1=(\"@status\")  ")) == .malformedHTTPSignature)
        // A control character in a covered value could forge a line of the signature base.
        var forged = message
        forged.fields = forged.fields.map { $0.name == "Content-Type" ? .init(name: $0.name, value: "a\n\"@status\": 200") : $0 }
        #expect(Self.code(forged) == .malformedHTTPMessage)
        #expect(Self.code(Self.replacing(message, "Content-Digest", with: "sha-256=:AAAA:")) == .signatureMismatch)
    }

    /// Seeded: one byte of a signature field changed, anywhere, is never accepted.
    @Test func singleByteChanges() throws {
        let seed = SeededGenerator.seed(for: "httpSignatureSingleByteChanges")
        print("httpSignatureSingleByteChanges seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let message = try Self.signed()
        for field in ["Signature-Input", "Signature", "Content-Type", "Content-Digest"] {
            let value = Array(try #require(message.values(of: field).first).utf8)
            for _ in 0..<60 {
                var changed = value
                let position = Int.random(in: 0..<changed.count, using: &random)
                changed[position] = UInt8.random(in: 0x20...0x7E, using: &random)
                guard changed != value else { continue }
                let tampered = Self.replacing(message, field, with: String(decoding: changed, as: UTF8.self))
                #expect(Self.code(tampered) != nil, "\(field) byte \(position): \(String(decoding: changed, as: UTF8.self))")
            }
        }
    }
}

@Suite struct HTTPMessageParseTests {
    @Test func curlOutput() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/2 200 \r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nok"
        let message = try HTTPMessage.parse(Array(text.utf8))
        #expect(message.start == .response(status: 200) && message.body == Array("ok".utf8))
        #expect(message.values(of: "Content-Type") == ["text/plain"])
    }

    @Test func refusals() {
        let cases: [(String, Int)] = [
            ("HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", 23),
            ("HTTP/1.1 200 OK\r\nA b\r\n\r\n", 17),
            ("HTTP/1.1 20 OK\r\n\r\n", 0),
            ("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc", 38),
            ("HTTP/1.1 200 OK\r\nA: \u{1}\r\n\r\n", 20),
            ("HTTP/1.1 200 OK\r\nA: b\r\n", 23),
            ("GET /x HTTP/1.1\r\n\r\n", 0),
        ]
        for (text, offset) in cases {
            let error = thrownError { () throws(VettedError) in _ = try HTTPMessage.parse(Array(text.utf8)) }
            #expect(error?.code == .malformedHTTPMessage && error?.offset == offset, "\(text.debugDescription): \(String(describing: error?.offset))")
        }
    }
}

@Suite struct PEMKeyTests {
    @Test func roundTrips() throws {
        for algorithm in [SignatureAlgorithm.ed25519, .p256] {
            let key = SigningKey.generate(algorithm)
            let reread = try SigningKey(pemRepresentation: try key.pemRepresentation)
            #expect(reread.rawRepresentation == key.rawRepresentation && reread.keyID == key.keyID)
            let publicKey = try VerificationKey(pemRepresentation: try key.verificationKey.pemRepresentation)
            #expect(publicKey.rawRepresentation == key.verificationKey.rawRepresentation && publicKey.keyID == key.keyID)
            // Through the file-text readers every command uses.
            #expect(try SigningKey(fileText: try key.pemRepresentation).keyID == key.keyID)
            #expect(try TrustedKeys(fileText: try key.verificationKey.pemRepresentation)[key.keyID] != nil)
        }
    }

    @Test func refusals() {
        #expect(thrownError { () throws(VettedError) in _ = try SigningKey.generate(.hmacSHA256).pemRepresentation }?.code == .unsupportedAlgorithm)
        #expect(thrownError { () throws(VettedError) in _ = try VerificationKey(pemRepresentation: RFC9421.ed25519Private) }?.code == .malformedKey)
        #expect(
            thrownError { () throws(VettedError) in _ = try SigningKey(pemRepresentation: RFC9421.ed25519Private + "\n" + RFC9421.ed25519Private) }?.code
                == .malformedKey)
        let garbage = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
        #expect(thrownError { () throws(VettedError) in _ = try VerificationKey(pemRepresentation: garbage) }?.code == .malformedKey)
        let huge = "-----BEGIN PUBLIC KEY-----\n" + String(repeating: "A", count: 20_000)
        #expect(thrownError { () throws(VettedError) in _ = try VerificationKey(pemRepresentation: huge) }?.code == .malformedKey)
    }
}

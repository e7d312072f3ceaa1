public import Foundation
import RawStructuredFieldValues
public import VettedCore

/// RFC 9421 HTTP message signatures, with the existing key types.
public enum HTTPSignatures {
    /// Signs `message`: builds the signature base over `components` and adds one
    /// member, `label`, to its `Signature-Input` and `Signature` fields.
    ///
    /// `created` and `keyid` are always written; `alg` unless `includeAlgorithm` is false.
    /// Covering `content-digest` needs the field: call ``HTTPMessage/setContentDigest(_:)`` first.
    ///
    /// - Throws: `VettedError` when the message cannot be signed as asked (a component it lacks, a malformed field).
    public static func sign(
        _ message: inout HTTPMessage,
        label: String = "sig1",
        covering components: [HTTPComponent],
        with key: SigningKey,
        created: Date = Date(),
        expires: Date? = nil,
        nonce: String? = nil,
        tag: String? = nil,
        includeAlgorithm: Bool = true
    ) throws(VettedError) {
        guard !components.isEmpty else {
            throw VettedError(code: .uncoveredComponent, message: "a signature that covers nothing proves nothing")
        }
        guard isValidLabel(label) else {
            throw VettedError(code: .malformedHTTPSignature, message: "\(Excerpt.escape(label)) is not a valid label (a structured-field key)")
        }
        var seen = Set<HTTPComponent>()
        for component in components {
            // `field(_:)` takes any name: one that is not a token is refused here, before anything is signed.
            _ = try HTTPComponent.parsed(component.name, path: [])
            guard seen.insert(component).inserted else {
                throw VettedError(code: .malformedHTTPSignature, message: "\(component) is covered twice")
            }
        }
        var parameters = OrderedMap<String, RFC9651BareItem>()
        parameters["created"] = .integer(try seconds(created))
        if let expires { parameters["expires"] = .integer(try seconds(expires)) }
        parameters["keyid"] = .string(key.keyID.rawValue)
        if includeAlgorithm { parameters["alg"] = .string(key.algorithm.httpSignatureName) }
        for (name, value) in [("nonce", nonce), ("tag", tag)] {
            guard let value else { continue }
            guard value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw VettedError(code: .malformedHTTPSignature, message: "the \(name) must be printable ASCII")
            }
            parameters[name] = .string(value)
        }
        var items = BareInnerList()
        for component in components { items.append(Item(bareItem: RFC9651BareItem.string(component.name), parameters: OrderedMap<String, RFC9651BareItem>())) }
        let inner = InnerList(bareInnerList: items, parameters: parameters)

        let index = message.fieldIndex()
        for field in ["signature-input", "signature"] {
            if let existing = try dictionary(field, in: index, limits: .default), existing[label] != nil {
                throw VettedError(
                    code: .malformedHTTPSignature, path: [.key(field)],
                    message: "the message already has a signature labelled \(label)")
            }
        }
        let base = try signatureBase(components: components, signatureParameters: inner, message: message, index: index)
        let signature = try key.signature(for: Array(base.utf8))
        let input = try serialize([label: .innerList(inner)])
        let signatureItem = Item(
            bareItem: RFC9651BareItem.undecodedByteSequence(Data(signature).base64EncodedString()),
            parameters: OrderedMap<String, RFC9651BareItem>())
        let value = try serialize([label: .item(signatureItem)])
        message.append("Signature-Input", input)
        message.append("Signature", value)
    }

    /// Verifies a signature on `message` with a key from `keys`, under `policy`.
    ///
    /// With ``HTTPSignaturePolicy/label`` unset, each signature is tried in the
    /// order of `Signature-Input`; the first that satisfies the policy and
    /// verifies is returned. When none does, the first signature's error is thrown.
    ///
    /// - Throws: `VettedError` for a missing or malformed signature, an untrusted or mismatched key, a component the policy requires but the signature does not cover, an expired signature, or a body whose `Content-Digest` does not match.
    public static func verify(
        _ message: HTTPMessage, trusting keys: TrustedKeys, policy: HTTPSignaturePolicy, now: Date = Date()
    ) throws(VettedError) -> VerifiedHTTPMessage {
        let required = policy.allRequired
        guard !required.isEmpty else {
            throw VettedError(
                code: .uncoveredComponent,
                message: "the policy requires no component: a signature that covers nothing proves nothing")
        }
        let index = message.fieldIndex()
        guard let inputs = try dictionary("signature-input", in: index, limits: policy.limits) else {
            throw VettedError(code: .missingHTTPSignature, message: "the message has no Signature-Input field")
        }
        guard let signatures = try dictionary("signature", in: index, limits: policy.limits) else {
            throw VettedError(code: .missingHTTPSignature, message: "the message has no Signature field")
        }
        let labels = policy.label.map { [$0] } ?? inputs.map(\.0)
        var firstError: VettedError?
        for label in labels {
            do {
                return try verify(
                    label: label, message: message, index: index, inputs: inputs, signatures: signatures, keys: keys,
                    policy: policy, required: required, now: now)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? VettedError(code: .missingHTTPSignature, message: "Signature-Input has no signature")
    }

    /// The signature base (RFC 9421 §2.5) the signature labelled `label` on `message` is over.
    ///
    /// - Throws: `VettedError` when the label names no signature or a covered component is missing or malformed.
    public static func signatureBase(of message: HTTPMessage, label: String) throws(VettedError) -> String {
        let index = message.fieldIndex()
        guard let inputs = try dictionary("signature-input", in: index, limits: .default),
            let entry = inputs[label]
        else {
            throw VettedError(code: .missingHTTPSignature, path: [.key("signature-input")], message: "no signature labelled \(Excerpt.escape(label))")
        }
        let (components, inner, _) = try parseInput(entry, label: label, limits: .default)
        return try signatureBase(components: components, signatureParameters: inner, message: message, index: index)
    }

    // MARK: - Verification

    private static func verify(
        label: String, message: HTTPMessage, index: [String: [String]], inputs: OrderedMap<String, ItemOrInnerList>,
        signatures: OrderedMap<String, ItemOrInnerList>, keys: TrustedKeys, policy: HTTPSignaturePolicy,
        required: [HTTPComponent], now: Date
    ) throws(VettedError) -> VerifiedHTTPMessage {
        let inputPath: DocumentPath = [.key("signature-input"), .key(label)]
        guard let entry = inputs[label] else {
            throw VettedError(code: .missingHTTPSignature, path: inputPath, message: "Signature-Input has no signature labelled \(Excerpt.escape(label))")
        }
        guard let signatureEntry = signatures[label] else {
            throw VettedError(
                code: .missingHTTPSignature, path: [.key("signature"), .key(label)],
                message: "Signature has no value labelled \(Excerpt.escape(label))")
        }
        let (components, inner, parameters) = try parseInput(entry, label: label, limits: policy.limits)

        guard let keyIDText = parameters.keyID else {
            throw VettedError(code: .missingSignatureParameter, path: inputPath, message: "the signature has no keyid")
        }
        let keyID: KeyID
        do {
            keyID = try KeyID(keyIDText)
        } catch {
            throw VettedError(code: .unknownKeyID, path: inputPath, message: "the keyid \(Excerpt.escape(keyIDText)) is not a key id this library accepts")
        }
        guard let key = keys[keyID] else {
            throw VettedError(code: .unknownKeyID, path: inputPath, message: "no trusted key has the id \(Excerpt.escape(keyIDText))")
        }
        if let name = parameters.algorithm {
            guard let algorithm = SignatureAlgorithm(httpSignatureName: name) else {
                throw VettedError(code: .unsupportedAlgorithm, path: inputPath, message: "unknown algorithm \(Excerpt.escape(name))")
            }
            guard algorithm == key.algorithm else {
                throw VettedError(
                    code: .algorithmMismatch, path: inputPath,
                    message: "the signature says \(name); the key \(keyID) is \(key.algorithm.httpSignatureName)")
            }
        }
        if let expected = policy.expectedTag, parameters.tag != expected {
            throw VettedError(
                code: .unexpectedSignatureTag, path: inputPath,
                message: "the tag is \(parameters.tag.map { Excerpt.escape($0) } ?? "absent"), not \(Excerpt.escape(expected))")
        }
        let covered = Set(components)
        for component in required where !covered.contains(component) {
            throw VettedError(
                code: .uncoveredComponent, path: inputPath,
                message: components.isEmpty
                    ? "the signature covers nothing; the policy requires \(component)"
                    : "the signature does not cover \(component), which the policy requires")
        }
        try checkTimes(parameters, policy: policy, now: now, path: inputPath)

        guard case .item(let signatureItem) = signatureEntry, case .undecodedByteSequence(let base64) = signatureItem.rfc9651BareItem,
            signatureItem.rfc9651Parameters.isEmpty, let signature = canonicalBase64(base64)
        else {
            throw VettedError(
                code: .malformedHTTPSignature, path: [.key("signature"), .key(label)], message: "a signature is one byte sequence, :base64:")
        }
        let base = try signatureBase(components: components, signatureParameters: inner, message: message, index: index)
        guard key.isValidSignature(Array(signature), for: Array(base.utf8)) else {
            throw VettedError(
                code: .signatureMismatch, path: [.key("signature"), .key(label)],
                message: "the signature does not verify with key \(keyID): a covered component, a parameter or the signature changed")
        }
        var body: VerifiedBytes?
        if covered.contains(.field("content-digest")) {
            let digest = try ContentDigest.check(message.body, index: index, limits: policy.limits)
            body = VerifiedBytes(
                bytes: message.body, report: GateReport(byteCount: message.body.count, digest: digest, signedBy: keyID, envelope: false))
        }
        return VerifiedHTTPMessage(
            message: message, label: label, keyID: keyID, algorithm: key.algorithm, coveredComponents: components,
            parameters: parameters, signatureBase: base, body: body)
    }

    private static func checkTimes(
        _ parameters: HTTPSignatureParameters, policy: HTTPSignaturePolicy, now: Date, path: DocumentPath
    ) throws(VettedError) {
        let current = try seconds(now)
        let skew = clampedSeconds(policy.clockSkew)
        guard let created = parameters.created else {
            if policy.requireCreated {
                throw VettedError(code: .missingSignatureParameter, path: path, message: "the signature has no created time")
            }
            return try checkExpiry(parameters, current: current, skew: skew, path: path)
        }
        // Every operand is within ±10^15 (structured-field integers, clamped durations): no overflow.
        if created > current + skew {
            throw VettedError(
                code: .signatureNotYetValid, path: path, message: "created \(created - current) s in the future, more than the clock skew allows")
        }
        if let maximumAge = policy.maximumAge, current - created > clampedSeconds(maximumAge) + skew {
            throw VettedError(
                code: .signatureExpired, path: path,
                message: "created \(current - created) s ago; the policy accepts at most \(clampedSeconds(maximumAge)) s")
        }
        try checkExpiry(parameters, current: current, skew: skew, path: path)
    }

    private static func checkExpiry(_ parameters: HTTPSignatureParameters, current: Int64, skew: Int64, path: DocumentPath) throws(VettedError) {
        if let expires = parameters.expires, current - skew > expires {
            throw VettedError(code: .signatureExpired, path: path, message: "expired \(current - expires) s ago")
        }
    }

    // MARK: - Fields

    /// A structured dictionary field (all lines joined), bounded before it is parsed
    /// and refused unless it is written the way the serializer writes it: that is
    /// how a repeated label or parameter, which RFC 8941 would silently collapse, is caught.
    static func dictionary(
        _ field: String, in index: [String: [String]], limits: HTTPSignatureLimits
    ) throws(VettedError) -> OrderedMap<String, ItemOrInnerList>? {
        guard let lines = index[field] else { return nil }
        let path: DocumentPath = [.key(field)]
        let joinedBytes = lines.reduce(0) { $0 + $1.utf8.count + 2 }
        guard joinedBytes <= limits.maxFieldBytes + 2 else {
            throw VettedError(code: .httpFieldTooLarge, path: path, message: "\(field) is longer than \(limits.maxFieldBytes) bytes")
        }
        let bytes = Array(lines.joined(separator: ", ").utf8)
        let parsed: OrderedMap<String, ItemOrInnerList>
        do {
            var parser = StructuredFieldValueParser(bytes)
            parsed = try parser.parseDictionaryFieldValue()
        } catch {
            throw VettedError(
                code: .malformedHTTPSignature, path: path,
                message: "\(field) is not a structured-field dictionary",
                excerpt: Excerpt(before: [], after: Array(bytes.prefix(Excerpt.maximumBytes))))
        }
        guard parsed.count <= limits.maxSignatures else {
            throw VettedError(code: .tooManyHTTPSignatures, path: path, message: "\(field) has \(parsed.count) members; the limit is \(limits.maxSignatures)")
        }
        guard (try? serialize(parsed)).map({ Array($0.utf8) == bytes }) == true else {
            throw VettedError(
                code: .malformedHTTPSignature, path: path,
                message: "\(field) is not in canonical form: a repeated label or parameter, or spacing a serializer would not write")
        }
        return parsed
    }

    private static func parseInput(
        _ entry: ItemOrInnerList, label: String, limits: HTTPSignatureLimits
    ) throws(VettedError) -> ([HTTPComponent], InnerList, HTTPSignatureParameters) {
        let path: DocumentPath = [.key("signature-input"), .key(label)]
        guard case .innerList(let inner) = entry else {
            throw VettedError(code: .malformedHTTPSignature, path: path, message: "a signature's input is an inner list of components")
        }
        guard inner.bareInnerList.count <= limits.maxComponents else {
            throw VettedError(
                code: .tooManyCoveredComponents, path: path,
                message: "\(inner.bareInnerList.count) covered components; the limit is \(limits.maxComponents)")
        }
        var components: [HTTPComponent] = []
        var seen = Set<HTTPComponent>()
        for item in inner.bareInnerList {
            guard case .string(let name) = item.rfc9651BareItem else {
                throw VettedError(code: .malformedHTTPSignature, path: path, message: "a component identifier is a string")
            }
            guard item.rfc9651Parameters.isEmpty else {
                throw VettedError(
                    code: .unsupportedComponent, path: path,
                    message: "component parameters (;sf ;key ;bs ;req ;tr ;name) are not supported, on \(Excerpt.escape(name))")
            }
            let component = try HTTPComponent.parsed(name, path: path)
            guard seen.insert(component).inserted else {
                throw VettedError(code: .malformedHTTPSignature, path: path, message: "\(component) is covered twice")
            }
            components.append(component)
        }
        var parameters = HTTPSignatureParameters()
        for (name, value) in inner.rfc9651Parameters {
            switch (name, value) {
            case ("created", .integer(let seconds)): parameters.created = seconds
            case ("expires", .integer(let seconds)): parameters.expires = seconds
            case ("keyid", .string(let text)): parameters.keyID = text
            case ("alg", .string(let text)): parameters.algorithm = text
            case ("nonce", .string(let text)): parameters.nonce = text
            case ("tag", .string(let text)): parameters.tag = text
            case ("created", _), ("expires", _):
                throw VettedError(code: .malformedHTTPSignature, path: path, message: "\(name) is an integer")
            case ("keyid", _), ("alg", _), ("nonce", _), ("tag", _):
                throw VettedError(code: .malformedHTTPSignature, path: path, message: "\(name) is a string")
            default:
                throw VettedError(code: .malformedHTTPSignature, path: path, message: "unknown signature parameter \(Excerpt.escape(name))")
            }
        }
        return (components, inner, parameters)
    }

    // MARK: - The signature base

    static func signatureBase(
        components: [HTTPComponent], signatureParameters: InnerList, message: HTTPMessage, index: [String: [String]]
    ) throws(VettedError) -> String {
        var base = ""
        for component in components {
            let value = try componentValue(component, message: message, index: index)
            // A line break (or any control character) in a value could forge lines of the base.
            guard value.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 }) else {
                throw VettedError(
                    code: .malformedHTTPMessage, path: [.key(component.name)],
                    message: "\(component) has a control character or a non-ASCII byte")
            }
            base += "\"\(component.name)\": \(value)\n"
        }
        base += "\"@signature-params\": " + (try serialize(list: [.innerList(signatureParameters)]))
        return base
    }

    private static func componentValue(
        _ component: HTTPComponent, message: HTTPMessage, index: [String: [String]]
    ) throws(VettedError) -> String {
        let path: DocumentPath = [.key(component.name)]
        guard component.isDerived else {
            guard let lines = index[component.name] else {
                throw VettedError(code: .missingComponent, path: path, message: "the message has no \(component.name) field to cover")
            }
            return lines.joined(separator: ", ")
        }
        switch message.start {
        case .response(let status):
            guard component == .status else {
                throw VettedError(code: .unsupportedComponent, path: path, message: "\(component) is not part of a response")
            }
            guard (100...999).contains(status) else {
                throw VettedError(code: .malformedHTTPMessage, path: path, message: "the status is not three digits")
            }
            return String(status)
        case .request(let method, let targetURI):
            if component == .method { return method }
            if component == .targetURI { return targetURI }
            guard component != .status else {
                throw VettedError(code: .unsupportedComponent, path: path, message: "@status is not part of a request")
            }
            guard targetURI.utf8.count <= 8_192, let uri = URLComponents(string: targetURI), let scheme = uri.scheme?.lowercased(),
                let host = uri.percentEncodedHost, !host.isEmpty
            else {
                throw VettedError(code: .malformedHTTPMessage, path: path, message: "the target URI is not an absolute URI")
            }
            let query = uri.percentEncodedQuery.map { "?" + $0 }
            switch component {
            case .scheme: return scheme
            case .authority:
                let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
                if let port = uri.port, port != defaultPort { return host.lowercased() + ":" + String(port) }
                return host.lowercased()
            case .path: return uri.percentEncodedPath.isEmpty ? "/" : uri.percentEncodedPath
            case .query: return query ?? "?"
            default:  // .requestTarget
                return (uri.percentEncodedPath.isEmpty ? "/" : uri.percentEncodedPath) + (query ?? "")
            }
        }
    }

    // MARK: - Helpers

    static func serialize(_ dictionary: OrderedMap<String, ItemOrInnerList>) throws(VettedError) -> String {
        do {
            var serializer = StructuredFieldValueSerializer()
            return String(decoding: try serializer.writeDictionaryFieldValue(dictionary), as: UTF8.self)
        } catch {
            throw VettedError(code: .malformedHTTPSignature, message: "a value that cannot be written as a structured field")
        }
    }

    static func serialize(list: [ItemOrInnerList]) throws(VettedError) -> String {
        do {
            var serializer = StructuredFieldValueSerializer()
            return String(decoding: try serializer.writeListFieldValue(list), as: UTF8.self)
        } catch {
            throw VettedError(code: .malformedHTTPSignature, message: "a value that cannot be written as a structured field")
        }
    }

    /// The bytes of `text` when it is base64 as an encoder writes it, padding bits zero:
    /// `AA==` and `AB==` decode alike, and only one of them may stand for the bytes.
    static func canonicalBase64(_ text: String) -> Data? {
        guard let bytes = Data(base64Encoded: text), bytes.base64EncodedString() == text else { return nil }
        return bytes
    }

    /// A structured-field key: lower-case letter or `*`, then lower-case letters, digits, `_-.*`.
    static func isValidLabel(_ label: String) -> Bool {
        let bytes = Array(label.utf8)
        guard let first = bytes.first, (0x61...0x7A).contains(first) || first == UInt8(ascii: "*"), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || Array("_-.*".utf8).contains($0) }
    }

    /// Whole seconds since 1970, refused outside what a structured-field integer holds.
    static func seconds(_ date: Date) throws(VettedError) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite, abs(value) < 999_999_999_999_999 else {
            throw VettedError(code: .malformedHTTPSignature, message: "a time outside what a signature can carry")
        }
        return Int64(value)
    }

    static func clampedSeconds(_ duration: Duration) -> Int64 {
        min(max(duration.components.seconds, 0), 999_999_999_999_999)
    }
}

/// `Content-Digest` (RFC 9530): `sha-256=:BASE64:` and `sha-512=:BASE64:`.
enum ContentDigest {
    static func name(_ algorithm: DigestAlgorithm) -> String {
        switch algorithm {
        case .sha256: "sha-256"
        case .sha384: "sha-384"
        case .sha512: "sha-512"
        }
    }

    static func fieldValue(_ algorithm: DigestAlgorithm, of body: [UInt8]) -> String {
        "\(name(algorithm))=:\(Data(algorithm.digest(of: body)).base64EncodedString()):"
    }

    /// Checks every `sha-256`/`sha-512` member against the body (other members are
    /// ignored); at least one must be there. Returns the first.
    static func check(_ body: [UInt8], index: [String: [String]], limits: HTTPSignatureLimits) throws(VettedError) -> ExpectedDigest {
        let path: DocumentPath = [.key("content-digest")]
        guard let members = try HTTPSignatures.dictionary("content-digest", in: index, limits: limits) else {
            throw VettedError(code: .missingComponent, path: path, message: "the message has no Content-Digest field")
        }
        var first: ExpectedDigest?
        for (name, value) in members {
            let algorithm: DigestAlgorithm
            switch name {
            case "sha-256": algorithm = .sha256
            case "sha-512": algorithm = .sha512
            default: continue
            }
            guard case .item(let item) = value, case .undecodedByteSequence(let base64) = item.rfc9651BareItem,
                let bytes = HTTPSignatures.canonicalBase64(base64)
            else {
                throw VettedError(code: .malformedDigest, path: path.appending(.key(name)), message: "a digest is one byte sequence, :base64:")
            }
            let expected = try ExpectedDigest(algorithm, bytes: Array(bytes))
            guard expected.matches(algorithm.digest(of: body)) else {
                throw VettedError(
                    code: .digestMismatch, path: path.appending(.key(name)),
                    message: "the body (\(body.count) bytes) does not have the \(name) digest Content-Digest gives")
            }
            if first == nil { first = expected }
        }
        guard let first else {
            throw VettedError(code: .malformedDigest, path: path, message: "Content-Digest has no sha-256 or sha-512 member")
        }
        return first
    }
}

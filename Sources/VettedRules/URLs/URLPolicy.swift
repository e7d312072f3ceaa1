#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
public import VettedCore

/// What a URL must be: its schemes, its hosts, its length.
///
/// The check parses the text itself (RFC 3986 authority syntax, strictly)
/// rather than trusting a lenient parser, and refuses the tricks phishing
/// relies on:
/// - user information (`https://example.com@evil.test` goes to evil.test): `userInfoNotAllowed`;
/// - backslashes and control characters, which browsers "fix" differently: `invalidURL`;
/// - IP-literal hosts in any spelling (`127.0.0.1`, `2130706433`, `0x7f.1`, `[::1]`): `ipHostNotAllowed`;
/// - hosts that look like an allowed one — Punycode (`xn--…`) or mixed-script
///   labels whose look-alike skeleton is an allowed host (`exаmple.com` with a
///   Cyrillic а): `confusableHost`;
/// - any other host outside the allowlist: `hostNotAllowed`.
///
/// An allowlist is required: `URLPolicy(hosts: [.exact("example.com")])`. A
/// policy for any host is asked for by name, ``anyHost(schemes:maximumLength:allowsIPHosts:allowsUserInfo:)``
/// (still refusing IPs, user information and look-alikes). An empty `hosts`
/// list is not "any host": it is a declaration error (`emptyHostAllowlist`),
/// thrown by every decode that runs the rule, never a value's fault.
public struct URLPolicy: Sendable, Hashable {
    public enum Host: Sendable, Hashable {
        /// This host only.
        case exact(String)
        /// This host and any of its subdomains.
        case includingSubdomains(String)
    }

    /// Allowed schemes, lowercase. Default `https` only.
    public var schemes: Set<String> { didSet { allowed = Allowed(schemes: schemes, hosts: hosts) } }
    /// Allowed hosts. Empty is a declaration error unless ``allowsAnyHost``.
    public var hosts: [Host] { didSet { allowed = Allowed(schemes: schemes, hosts: hosts) } }
    /// Longest URL, in UTF-8 bytes, checked before parsing.
    public var maximumLength: Int
    public var allowsIPHosts: Bool
    public var allowsUserInfo: Bool
    /// Whether any host is allowed (still refusing IPs and confusables): only through ``anyHost(schemes:maximumLength:allowsIPHosts:allowsUserInfo:)``.
    public private(set) var allowsAnyHost: Bool

    public init(
        schemes: Set<String> = ["https"], hosts: [Host], maximumLength: Int = 2_048,
        allowsIPHosts: Bool = false, allowsUserInfo: Bool = false
    ) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.hosts = hosts
        allowed = Allowed(schemes: self.schemes, hosts: hosts)
        self.maximumLength = maximumLength
        self.allowsIPHosts = allowsIPHosts
        self.allowsUserInfo = allowsUserInfo
        allowsAnyHost = false
    }

    /// A policy that allows any host, still refusing IP hosts (unless allowed),
    /// user information (unless allowed), Punycode and mixed-script look-alikes.
    public static func anyHost(
        schemes: Set<String> = ["https"], maximumLength: Int = 2_048, allowsIPHosts: Bool = false, allowsUserInfo: Bool = false
    ) -> URLPolicy {
        var policy = URLPolicy(schemes: schemes, hosts: [], maximumLength: maximumLength, allowsIPHosts: allowsIPHosts, allowsUserInfo: allowsUserInfo)
        policy.allowsAnyHost = true
        return policy
    }

    /// Why this policy cannot work as declared (no hosts, without ``allowsAnyHost``), or `nil`.
    public var declarationError: VettedError? {
        guard hosts.isEmpty, !allowsAnyHost else { return nil }
        return VettedError(
            code: .emptyHostAllowlist,
            message: "the URL policy allows no host: list the hosts, or ask for URLPolicy.anyHost() (an empty allowlist never means any host)")
    }

    /// The violation, or `nil` when `text` is a URL this policy allows.
    public func violation(for text: String) -> RuleViolation? {
        if let declarationError { return RuleViolation(declarationError.code, declarationError.message) }
        guard text.utf8.count <= maximumLength else {
            return RuleViolation(.tooLong, "URL must be at most \(maximumLength) bytes", value: text)
        }
        if let verdict = asciiVerdict(text) { return verdict.violation }
        return generalViolation(for: text)
    }

    /// ``schemes`` and ``hosts`` as lowercase bytes, for the ASCII fast path
    /// (derived from them, so it never changes equality).
    private var allowed: Allowed

    private struct Allowed: Sendable, Hashable {
        var schemes: [[UInt8]] = []
        /// Each host, and whether its subdomains are allowed too.
        var hosts: [[UInt8]] = []
        var subdomains: [Bool] = []
        /// Each host's UTS #39 skeleton, for comparing look-alike hosts with (computed once, not per URL).
        var skeletons: [String] = []

        init(schemes: Set<String>, hosts: [Host]) {
            self.schemes = schemes.map { Array($0.lowercased().utf8) }
            for host in hosts {
                switch host {
                case .exact(let name):
                    self.hosts.append(Array(name.lowercased().utf8))
                    subdomains.append(false)
                case .includingSubdomains(let name):
                    self.hosts.append(Array(name.lowercased().utf8))
                    subdomains.append(true)
                }
            }
            skeletons = hosts.map { host in
                switch host {
                case .exact(let name), .includingSubdomains(let name): URLPolicy.skeleton(ofHost: name)
                }
            }
        }
    }

    /// The outcome of the ASCII fast path.
    package struct Verdict {
        package var violation: RuleViolation?
    }

    /// The same checks as ``generalViolation(for:)``, on the UTF-8 bytes of an
    /// all-ASCII URL with a plain (not Punycode) host: no `Character`
    /// iteration and no allocation but the violation's. `nil` hands the text
    /// to the general path (non-ASCII text, or a Punycode label).
    package func asciiVerdict(_ text: String) -> Verdict? {
        let bytes = text.utf8.span
        let count = bytes.count
        var colon = -1
        for index in 0..<count {
            let byte = bytes[index]
            // Printable ASCII but the backslash (0x21...0x7E, one comparison): the common byte.
            if byte &- 0x21 < 0x5E, byte != UInt8(ascii: "\\") {
                if colon < 0, byte == UInt8(ascii: ":") { colon = index }
                continue
            }
            // The first other byte decides: non-ASCII text is the general path's; a space, a
            // control character, DEL or a backslash is no URL.
            if byte >= 0x80 { return nil }
            return Verdict(violation: RuleViolation(.invalidURL, "not a URL: empty, or contains spaces, control characters or backslashes", value: text))
        }
        guard count > 0 else {
            return Verdict(violation: RuleViolation(.invalidURL, "not a URL: empty, or contains spaces, control characters or backslashes", value: text))
        }
        guard colon >= 0 else { return Verdict(violation: RuleViolation(.invalidURL, "not a URL: no scheme", value: text)) }
        guard colon > 0, Self.isLetter(bytes[0]) else {
            return Verdict(violation: RuleViolation(.invalidURL, "not a URL: malformed scheme", value: text))
        }
        for index in 0..<colon {
            let byte = bytes[index]
            guard Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else {
                return Verdict(violation: RuleViolation(.invalidURL, "not a URL: malformed scheme", value: text))
            }
        }
        let allowed = allowed
        var schemeAllowed = false
        for scheme in allowed.schemes where Self.equalLowercased(bytes, 0..<colon, scheme) {
            schemeAllowed = true
            break
        }
        guard schemeAllowed else {
            return Verdict(violation: RuleViolation(.schemeNotAllowed, "scheme must be one of \(schemes.sorted().joined(separator: ", "))", value: text))
        }
        guard colon + 2 < count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            return Verdict(violation: RuleViolation(.invalidURL, "not a URL: no '//' authority", value: text))
        }
        // One pass over the authority: where it ends, where its host starts (after the last
        // '@'), and the last ':' after that (a port's).
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        var hostStart = authorityStart
        var portColon = -1
        while authorityEnd < count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") {
                guard allowsUserInfo else {
                    return Verdict(violation: RuleViolation(.userInfoNotAllowed, "URL must not contain user information ('@' before the host)", value: text))
                }
                hostStart = authorityEnd + 1
                portColon = -1
            } else if byte == UInt8(ascii: ":") {
                portColon = authorityEnd
            }
            authorityEnd += 1
        }
        if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
            return Verdict(violation: allowsIPHosts ? nil : RuleViolation(.ipHostNotAllowed, "host must be a name, not an IP address", value: text))
        }
        var hostEnd = authorityEnd
        if portColon >= 0 {
            let digits = authorityEnd - portColon - 1
            var number = 0
            var valid = digits >= 1 && digits <= 5
            if valid {
                for index in (portColon + 1)..<authorityEnd {
                    guard Self.isDigit(bytes[index]) else {
                        valid = false
                        break
                    }
                    number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                }
            }
            guard valid, number <= 65_535 else { return Verdict(violation: RuleViolation(.invalidURL, "not a URL: malformed port", value: text)) }
            hostEnd = portColon
        }
        if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
        // The host is checked in place (lowercased on the fly), without copying it.
        var malformed = hostEnd == hostStart || bytes[hostStart] == UInt8(ascii: ".")
        var labelStart = hostStart
        var previous: UInt8 = 0
        for index in hostStart..<hostEnd {
            let byte = Self.lowercase(bytes[index])
            if byte == UInt8(ascii: "%") { malformed = true }
            if byte == UInt8(ascii: ".") {
                if previous == UInt8(ascii: ".") { malformed = true }
                labelStart = index + 1
            } else if index == labelStart + 3, byte == UInt8(ascii: "-"), Self.lowercase(bytes[labelStart]) == UInt8(ascii: "x"),
                Self.lowercase(bytes[labelStart + 1]) == UInt8(ascii: "n"), bytes[labelStart + 2] == UInt8(ascii: "-")
            {
                return nil  // a Punycode label: the general path decodes it
            }
            previous = byte
        }
        guard !malformed else { return Verdict(violation: RuleViolation(.invalidURL, "not a URL: malformed host", value: text)) }
        // A second trailing dot leaves an empty last label: the general path splits labels its own way.
        if previous == UInt8(ascii: ".") { return nil }
        // IPv4 in any spelling: the last label is all digits, or 0x and hex digits.
        var isIP = labelStart < hostEnd
        if labelStart + 1 < hostEnd, bytes[labelStart] == UInt8(ascii: "0"), Self.lowercase(bytes[labelStart + 1]) == UInt8(ascii: "x") {
            for index in (labelStart + 2)..<hostEnd where !Self.isHexDigit(bytes[index]) { isIP = false }
        } else {
            for index in labelStart..<hostEnd where !Self.isDigit(bytes[index]) { isIP = false }
        }
        if isIP {
            return Verdict(violation: allowsIPHosts ? nil : RuleViolation(.ipHostNotAllowed, "host must be a name, not an IP address", value: text))
        }
        guard !allowed.hosts.isEmpty, !Self.matchesAllowed(bytes, hostStart..<hostEnd, allowed) else { return Verdict(violation: nil) }
        return Verdict(violation: RuleViolation(.hostNotAllowed, "host is not one of the allowed hosts", value: text))
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f")) }
    private static func lowercase(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte }

    /// Whether the ASCII host `bytes[name]` is allowed, compared without building strings.
    private static func matchesAllowed(_ bytes: Span<UInt8>, _ name: Range<Int>, _ allowed: Allowed) -> Bool {
        for (host, subdomains) in zip(allowed.hosts, allowed.subdomains) {
            if equalLowercased(bytes, name, host) { return true }
            let length = host.count
            if subdomains, name.count > length, bytes[name.upperBound - length - 1] == UInt8(ascii: "."),
                equalLowercased(bytes, (name.upperBound - length)..<name.upperBound, host)
            {
                return true
            }
        }
        return false
    }

    /// Whether `bytes[range]` equals `lowercased` (already lowercase) ignoring ASCII case.
    private static func equalLowercased(_ bytes: Span<UInt8>, _ range: Range<Int>, _ lowercased: [UInt8]) -> Bool {
        guard range.count == lowercased.count else { return false }
        var offset = 0
        for index in range {
            guard lowercase(bytes[index]) == lowercased[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Every check, on any text (the slow path, for non-ASCII URLs and Punycode hosts).
    package func generalViolation(for text: String) -> RuleViolation? {
        guard !text.isEmpty,
            !text.unicodeScalars.contains(where: {
                $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" || ($0.value >= 0x80 && $0.properties.isWhitespace)
            })
        else {
            return RuleViolation(.invalidURL, "not a URL: empty, or contains spaces, control characters or backslashes", value: text)
        }
        // scheme ":" "//" authority
        guard let colon = text.firstIndex(of: ":") else { return RuleViolation(.invalidURL, "not a URL: no scheme", value: text) }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scheme.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric || $0 == "+" || $0 == "-" || $0 == "." })
        else { return RuleViolation(.invalidURL, "not a URL: malformed scheme", value: text) }
        guard schemes.contains(scheme.lowercased()) else {
            return RuleViolation(.schemeNotAllowed, "scheme must be one of \(schemes.sorted().joined(separator: ", "))", value: text)
        }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { return RuleViolation(.invalidURL, "not a URL: no '//' authority", value: text) }
        let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
        let authorityEnd = rest[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[authorityStart..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            guard allowsUserInfo else {
                return RuleViolation(.userInfoNotAllowed, "URL must not contain user information ('@' before the host)", value: text)
            }
            authority = authority[authority.index(after: at)...]
        }
        // host [":" port]
        var host = Substring(authority)
        if host.hasPrefix("[") {
            return allowsIPHosts ? nil : RuleViolation(.ipHostNotAllowed, "host must be a name, not an IP address", value: text)
        }
        if let portColon = host.lastIndex(of: ":") {
            let port = host[host.index(after: portColon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port), number <= 65_535 else {
                return RuleViolation(.invalidURL, "not a URL: malformed port", value: text)
            }
            host = host[..<portColon]
        }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !name.contains("%"), !name.hasPrefix("."), !name.contains("..") else {
            return RuleViolation(.invalidURL, "not a URL: malformed host", value: text)
        }
        return hostViolation(name, text: text)
    }

    private func hostViolation(_ name: String, text: String) -> RuleViolation? {
        let labels = name.split(separator: ".").map(String.init)
        if Self.isIPAddress(labels) {
            return allowsIPHosts ? nil : RuleViolation(.ipHostNotAllowed, "host must be a name, not an IP address", value: text)
        }
        let isPlainASCII = name.unicodeScalars.allSatisfy(\.isASCII) && !labels.contains { $0.hasPrefix("xn--") }
        if isPlainASCII {
            guard !hosts.isEmpty, !matchesAllowed(name) else { return nil }
            return RuleViolation(.hostNotAllowed, "host is not one of the allowed hosts", value: text)
        }
        // Non-ASCII or Punycode: what does it look like?
        var decoded: [String] = []
        for label in labels {
            guard label.hasPrefix("xn--") else {
                decoded.append(label)
                continue
            }
            guard let unicode = Punycode.decode(String(label.dropFirst(4))) else {
                return RuleViolation(.invalidURL, "not a URL: malformed Punycode label", value: text)
            }
            decoded.append(unicode)
        }
        if decoded.contains(where: Confusables.mixesScripts) {
            return RuleViolation(.confusableHost, "host mixes scripts in one label, a common disguise", value: text)
        }
        let skeletons = decoded.map(Confusables.skeleton)
        if zip(decoded, skeletons).contains(where: { Confusables.looksLatin($0, skeleton: $1) }) {
            return RuleViolation(.confusableHost, "host is written in another script to look like Latin letters", value: text)
        }
        if hosts.isEmpty { return nil }
        let skeleton = skeletons.joined(separator: ".")
        if matchesAllowed(skeleton, bySkeleton: true) {
            return RuleViolation(.confusableHost, "host looks like an allowed host but is a different one", value: text)
        }
        return RuleViolation(.hostNotAllowed, "host is not one of the allowed hosts", value: text)
    }

    /// Whether `name` is an allowed host; with `bySkeleton`, `name` is a skeleton
    /// and is compared with the allowed hosts' skeletons.
    static func skeleton(ofHost host: String) -> String {
        host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map { Confusables.skeleton(String($0)) }.joined(separator: ".")
    }

    private func matchesAllowed(_ name: String, bySkeleton: Bool = false) -> Bool {
        for (index, allowedHost) in hosts.enumerated() {
            switch allowedHost {
            case .exact(let host):
                let host = bySkeleton && allowed.skeletons.indices.contains(index) ? allowed.skeletons[index] : host.lowercased()
                if name == host { return true }
            case .includingSubdomains(let host):
                let host = bySkeleton && allowed.skeletons.indices.contains(index) ? allowed.skeletons[index] : host.lowercased()
                if name == host || name.hasSuffix("." + host) { return true }
            }
        }
        return false
    }

    /// IPv4 in any form a resolver accepts: dotted, decimal, octal, hex, fewer than four parts.
    static func isIPAddress(_ labels: [String]) -> Bool {
        guard let last = labels.last, !last.isEmpty else { return false }
        let numeric: (String) -> Bool = { label in
            let lower = label.lowercased()
            if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
            return !label.isEmpty && label.allSatisfy(\.isASCIIDigit)
        }
        return numeric(last)
    }
}

extension Rule where Value == String {
    /// A URL allowed by `policy` (see ``URLPolicy``).
    public static func url(_ policy: URLPolicy) -> Rule {
        if let error = policy.declarationError { return Rule(misdeclared: error) }
        let parameters = policy.parameters
        return Rule(describedAs: RuleDescriptor("url", parameters)) { value in
            policy.violation(for: value).map { policy.withParameters($0, parameters) }
        }
    }
}

extension Rule where Value == URL {
    /// A URL allowed by `policy`, checked on its absolute string.
    public static func url(_ policy: URLPolicy) -> Rule {
        if let error = policy.declarationError { return Rule(misdeclared: error) }
        let parameters = policy.parameters
        return Rule(describedAs: RuleDescriptor("url", parameters)) { value in
            policy.violation(for: value.absoluteString).map { policy.withParameters($0, parameters) }
        }
    }
}

extension URLPolicy {
    /// The policy as a rule's parameters (see ``RuleDescriptor``).
    var parameters: [String: RuleParameter] {
        var exact: [RuleParameter] = []
        var subdomains: [RuleParameter] = []
        for host in hosts {
            switch host {
            case .exact(let name): exact.append(.string(name))
            case .includingSubdomains(let name): subdomains.append(.string(name))
            }
        }
        return [
            "schemes": .list(schemes.sorted().map(RuleParameter.string)), "hosts": .list(exact),
            "hostsIncludingSubdomains": .list(subdomains), "anyHost": .bool(allowsAnyHost),
            "maximumLength": .integer(maximumLength), "allowsIPHosts": .bool(allowsIPHosts), "allowsUserInfo": .bool(allowsUserInfo),
        ]
    }

    /// `violation` with the parameters its code is about: the schemes, the hosts, or the length.
    func withParameters(_ violation: RuleViolation, _ parameters: [String: RuleParameter]) -> RuleViolation {
        let names: [String] =
            switch violation.code {
            case .schemeNotAllowed: ["schemes"]
            case .hostNotAllowed, .confusableHost: ["hosts", "hostsIncludingSubdomains", "anyHost"]
            case .tooLong: ["maximumLength"]
            default: []
            }
        guard !names.isEmpty else { return violation }
        var chosen: [String: RuleParameter] = [:]
        for name in names { chosen[name] = parameters[name] }
        if violation.code == .tooLong {
            chosen = ["unit": .string("utf8Bytes"), "minimum": .integer(0), "maximum": .integer(maximumLength)]
        }
        return violation.adding(chosen)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

import Foundation
public import VettedCore

/// An HTTP request or response as RFC 9421 signs it: the control data
/// (method and target URI, or status), the header fields in order, and the body.
///
/// Field names keep the case they were given; lookups ignore case. Field values
/// are ASCII: a value with a control character (CR and LF included) cannot be
/// covered by a signature, because it could forge lines of the signature base.
public struct HTTPMessage: Sendable, Hashable {
    /// What starts the message.
    public enum Start: Sendable, Hashable {
        /// A request: its method (`POST`) and absolute target URI (`https://example.com/foo?x=1`).
        case request(method: String, targetURI: String)
        /// A response, with its three-digit status code.
        case response(status: Int)
    }

    /// One header field line.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var start: Start
    public var fields: [Field]
    public var body: [UInt8]

    public init(method: String, targetURI: String, fields: [Field] = [], body: [UInt8] = []) {
        start = .request(method: method, targetURI: targetURI)
        self.fields = fields
        self.body = body
    }

    public init(status: Int, fields: [Field] = [], body: [UInt8] = []) {
        start = .response(status: status)
        self.fields = fields
        self.body = body
    }

    /// Adds a field line after the others.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every line of the field `name` (any case).
    public mutating func removeFields(named name: String) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
    }

    /// The values of every line of `name` (any case), in order.
    public func values(of name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// Sets `Content-Digest` (RFC 9530) to the digest of the body, replacing any there.
    public mutating func setContentDigest(_ algorithm: DigestAlgorithm = .sha256) {
        removeFields(named: "content-digest")
        append("Content-Digest", ContentDigest.fieldValue(algorithm, of: body))
    }

    /// The message as HTTP/1.1 sends it: start line, field lines, an empty line, the body.
    /// A request goes in origin form, with a `Host` field from its target URI when it has none.
    public var wireBytes: [UInt8] {
        var head: String
        switch start {
        case .response(let status):
            head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
        case .request(let method, let targetURI):
            let uri = URLComponents(string: targetURI)
            let path = uri.map { $0.percentEncodedPath.isEmpty ? "/" : $0.percentEncodedPath } ?? "/"
            let query = uri?.percentEncodedQuery.map { "?" + $0 } ?? ""
            head = "\(method) \(path)\(query) HTTP/1.1\r\n"
            if values(of: "host").isEmpty, let host = uri?.percentEncodedHost {
                head += "Host: \(host)\(uri?.port.map { ":\($0)" } ?? "")\r\n"
            }
        }
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Every line of each field, by lower-case name: built once per verification,
    /// so looking up covered components is not a scan per component.
    func fieldIndex() -> [String: [String]] {
        var index: [String: [String]] = [:]
        for field in fields { index[field.name.lowercased(), default: []].append(field.value) }
        return index
    }
}

/// Limits for reading an HTTP message from bytes (``HTTPMessage/parse(_:scheme:limits:)``).
public struct HTTPMessageLimits: Sendable, Hashable {
    /// Largest head (start line and fields), in bytes.
    public var maxHeadBytes: Int
    /// Most field lines.
    public var maxFields: Int
    /// Largest body, in bytes.
    public var maxBodyBytes: Int

    public init(maxHeadBytes: Int = 64 * 1_024, maxFields: Int = 128, maxBodyBytes: Int = 16 * 1_024 * 1_024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxFields = maxFields
        self.maxBodyBytes = maxBodyBytes
    }

    public static let `default` = HTTPMessageLimits()
}

extension HTTPMessage {
    /// Reads an HTTP/1.x message as it travels, or a response as `curl -i` prints it
    /// (informational `1xx` heads before the final one are skipped; `HTTP/2 200` is accepted).
    ///
    /// Lines end in CRLF or LF. A request's target URI is built from `scheme`, its
    /// `Host` field and its request target. Obsolete line folding, control
    /// characters and non-ASCII bytes in the head are refused, and so is a body
    /// whose length is not the one `Content-Length` gives.
    ///
    /// - Throws: `VettedError` for a malformed start line, header or body framing, or one past the limits.
    public static func parse(
        _ bytes: [UInt8], scheme: String = "https", limits: HTTPMessageLimits = .default
    ) throws(VettedError) -> HTTPMessage {
        var position = 0
        while true {
            let head = try Head.read(bytes, from: position, limits: limits)
            if case .response(let status) = head.start, (100...199).contains(status) {
                position = head.bodyStart
                continue
            }
            let body = Array(bytes[head.bodyStart...])
            guard body.count <= limits.maxBodyBytes else {
                throw malformed("the body has \(body.count) bytes, more than the limit of \(limits.maxBodyBytes)", at: head.bodyStart)
            }
            let lengths = head.fields.filter { $0.name.lowercased() == "content-length" }.map(\.value)
            if let declared = lengths.first {
                guard lengths.allSatisfy({ $0 == declared }), let count = Int(declared), count >= 0 else {
                    throw malformed("Content-Length is not one decimal number", at: head.bodyStart)
                }
                guard count == body.count else {
                    throw malformed("Content-Length says \(count) bytes; the body has \(body.count)", at: head.bodyStart)
                }
            }
            switch head.start {
            case .response(let status):
                return HTTPMessage(status: status, fields: head.fields, body: body)
            case .request(let method, let target):
                let uri: String
                if target.hasPrefix("/") {
                    let hosts = head.fields.filter { $0.name.lowercased() == "host" }
                    guard hosts.count == 1, let host = hosts.first?.value, !host.isEmpty else {
                        throw malformed("a request in origin form needs exactly one Host field", at: 0)
                    }
                    uri = "\(scheme)://\(host)\(target)"
                } else {
                    uri = target
                }
                return HTTPMessage(method: method, targetURI: uri, fields: head.fields, body: body)
            }
        }
    }

    static func malformed(_ message: String, at offset: Int) -> VettedError {
        VettedError(code: .malformedHTTPMessage, offset: offset, message: message)
    }

    /// One head: start line and fields, up to the empty line.
    private struct Head {
        var start: Start
        var fields: [Field] = []
        var bodyStart: Int

        static func read(_ bytes: [UInt8], from origin: Int, limits: HTTPMessageLimits) throws(VettedError) -> Head {
            var lines: [(start: Int, bytes: ArraySlice<UInt8>)] = []
            var position = origin
            var ended = false
            while position < bytes.count {
                guard position - origin <= limits.maxHeadBytes else {
                    throw malformed("the head is longer than \(limits.maxHeadBytes) bytes", at: position)
                }
                var end = position
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                guard end < bytes.count else { throw malformed("the head does not end with an empty line", at: position) }
                var line = bytes[position..<end]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                let lineStart = position
                position = end + 1
                if line.isEmpty {
                    ended = true
                    break
                }
                guard lines.count <= limits.maxFields else {
                    throw malformed("more than \(limits.maxFields) field lines", at: lineStart)
                }
                lines.append((lineStart, line))
            }
            guard position - origin <= limits.maxHeadBytes else {
                throw malformed("the head is longer than \(limits.maxHeadBytes) bytes", at: origin)
            }
            guard ended else { throw malformed("the head does not end with an empty line", at: bytes.count) }
            guard let first = lines.first else { throw malformed("no HTTP head", at: origin) }
            for (start, line) in lines {
                if let bad = line.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 >= 0x7F }) {
                    throw malformed(
                        "a control character or non-ASCII byte in the head", at: start + (bad - line.startIndex))
                }
            }
            var head = Head(start: try startLine(first.bytes, at: first.start), bodyStart: position)
            for (start, line) in lines.dropFirst() {
                if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                    throw malformed("obsolete line folding", at: start)
                }
                guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                    throw malformed("a field line without a colon", at: start)
                }
                let name = line[line.startIndex..<colon]
                guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                    throw malformed("a field name that is not a token", at: start)
                }
                let value = line[(colon + 1)...].trimmingOWS()
                head.fields.append(Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            }
            return head
        }

        static func startLine(_ line: ArraySlice<UInt8>, at offset: Int) throws(VettedError) -> Start {
            let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { throw malformed("not an HTTP start line", at: offset) }
            let first = String(decoding: parts[0], as: UTF8.self)
            if first.hasPrefix("HTTP/") {
                guard parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
                    let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...599).contains(status)
                else { throw malformed("the status is not three digits from 100 to 599", at: offset) }
                return .response(status: status)
            }
            guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
                String(decoding: parts[2], as: UTF8.self).hasPrefix("HTTP/")
            else { throw malformed("not an HTTP request or status line", at: offset) }
            return .request(method: first, targetURI: String(decoding: parts[1], as: UTF8.self))
        }
    }
}

/// RFC 9110 token characters.
func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
        UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
        UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        true
    default:
        false
    }
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing spaces and tabs.
    func trimmingOWS() -> ArraySlice<UInt8> {
        var slice = self
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}

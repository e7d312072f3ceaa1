import VettedCore

/// `JSONValue` as a Codable field: "any JSON here". `VettedJSONDecoder`
/// hands over the parsed value itself (numbers keep their literal); other
/// decoders go through their containers.
extension JSONValue: Codable {
    /// Decodes any JSON value through `decoder`.
    ///
    /// - Throws: `DecodingError` when the decoder holds a value JSON cannot represent.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: PathKey.self) {
            var object = JSONObject()
            for key in container.allKeys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let integer = try? container.decode(Int64.self) {
                self = .number(JSONNumber(integer))
            } else if let integer = try? container.decode(UInt64.self) {
                self = .number(JSONNumber(integer))
            } else if let double = try? container.decode(Double.self), let number = JSONNumber(double) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// Encodes the value through `encoder`.
    ///
    /// - Throws: What `encoder` throws.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let integer = try? number.int64Value, !number.literal.contains(".") {
                try container.encode(integer)
            } else {
                try container.encode(try number.doubleValue)
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: PathKey.self)
            for (key, value) in zip(object.keys, object.values) { try container.encode(value, forKey: PathKey(stringValue: key)) }
        }
    }
}

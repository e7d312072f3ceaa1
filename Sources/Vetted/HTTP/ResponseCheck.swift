public import Foundation

/// What both adapters' response encoders do: encode, then read the bytes back as
/// the value's own type, so that its rules run on exactly what would be sent.
public enum VettedResponseCheck {
    /// `value` as JSON, once decoding those bytes with `checker` as `type(of: value)` succeeds.
    /// A value whose type is not `Decodable` has no rules to check and is sent as encoded.
    ///
    /// - Throws: ``VettedProblem/responseBreaksRules(_:)`` when the bytes do not read back; `EncodingError` as `encoder` throws it.
    public static func encode<Value: Encodable>(_ value: Value, with encoder: JSONEncoder, checkedBy checker: VettedJSONDecoder) throws -> [UInt8] {
        let bytes = Array(try encoder.encode(value))
        if let decodable = Value.self as? any Decodable.Type {
            do {
                try check(decodable, bytes, checker)
            } catch {
                throw VettedProblem.responseBreaksRules(error)
            }
        }
        return bytes
    }

    private static func check<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ checker: VettedJSONDecoder) throws {
        _ = try checker.decode(type, from: bytes)
    }
}

extension Duration {
    /// This duration in nanoseconds, at most about 95 years and at least zero, so that a
    /// deadline made by adding it to now cannot overflow (the adapters' body timers).
    package var boundedNanoseconds: Int64 {
        let ceiling: Int64 = 3_000_000_000_000_000_000
        let (nanoseconds, overflow) = Int64(clamping: components.seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carry) = nanoseconds.addingReportingOverflow(components.attoseconds / 1_000_000_000)
        return overflow || carry ? ceiling : max(0, min(total, ceiling))
    }
}

import Foundation
import VettedDecoding

extension VettedJSONDecoder.DateDecodingStrategy {
    /// What a reader reads for a date under this strategy.
    enum Reading {
        /// A number of seconds (``VettedJSONDecoder/DateDecodingStrategy/date(fromNumber:)``).
        case number
        /// A string (``VettedJSONDecoder/DateDecodingStrategy/date(from:in:)``).
        case string
        /// Only the strategy's closure reads it, from a decoder (`custom`).
        case decoder((_ decoder: any Decoder) throws -> Date)
    }

    // The one place the JSON decoders (the byte reader and the tape) turn what a date
    // strategy reads into a `Date`: each reader reads the number or the string its own
    // way, with its own errors, and asks here for the date. A new strategy is a case here.

    /// What this strategy reads.
    var reading: Reading {
        switch self {
        case .deferredToDate, .secondsSince1970, .millisecondsSince1970: .number
        case .iso8601, .formatted: .string
        case .custom(let decode): .decoder(decode)
        }
    }

    /// The date of a number under a strategy that reads one; `deferredToDate` reads
    /// seconds since 2001-01-01, as `Date(from:)` does.
    func date(fromNumber number: Double) -> Date {
        switch self {
        case .millisecondsSince1970: Date(timeIntervalSince1970: number / 1_000)
        case .deferredToDate: Date(timeIntervalSinceReferenceDate: number)
        default: Date(timeIntervalSince1970: number)
        }
    }

    /// The date of a string entry under a strategy that reads one, or `nil` when it
    /// does not parse (then ``unparsedWords`` says so).
    func date(from entry: JSONTape.Entry, in document: DecodingDocument) -> Date? {
        switch self {
        case .iso8601: document.iso8601Date(entry)
        case .formatted(let formatter): formatter.date(from: document.string(entry))
        default: nil
        }
    }

    /// Foundation's words for a string this strategy does not parse.
    var unparsedWords: String {
        if case .formatted = self { return DecodingTexts.notFormatted }
        return DecodingTexts.notISO8601
    }
}

extension Date {
    /// Whether every comparison with this date means something: NaN and the
    /// infinities (through `secondsSince1970` with non-conforming floats, say) are refused.
    var isFiniteDate: Bool { timeIntervalSinceReferenceDate.isFinite }
}

import Foundation
import VettedDecoding

extension VettedJSONDecoder.DateDecodingStrategy {
    /// What a reader reads for a date under this strategy, and how it becomes a `Date`.
    enum Reading {
        /// A number of seconds or milliseconds (``NumberDates/date(_:)``).
        case number(NumberDates)
        /// A string (``StringDates/date(from:in:)``).
        case string(StringDates)
        /// Only the strategy's closure reads it, from a decoder (`custom`).
        case decoder((_ decoder: any Decoder) throws -> Date)
    }

    /// The strategies that read a number.
    enum NumberDates {
        /// `deferredToDate`: seconds since 2001-01-01, as `Date(from:)` reads them.
        case secondsSinceReferenceDate
        case secondsSince1970
        case millisecondsSince1970

        /// The date of `number`.
        func date(_ number: Double) -> Date {
            switch self {
            case .secondsSinceReferenceDate: Date(timeIntervalSinceReferenceDate: number)
            case .secondsSince1970: Date(timeIntervalSince1970: number)
            case .millisecondsSince1970: Date(timeIntervalSince1970: number / 1_000)
            }
        }
    }

    /// The strategies that read a string.
    enum StringDates {
        case iso8601
        case formatted(DateFormatter)

        /// The date of a string entry, or `nil` when it does not parse (then ``unparsedWords`` says so).
        func date(from entry: JSONTape.Entry, in document: DecodingDocument) -> Date? {
            switch self {
            case .iso8601: document.iso8601Date(entry)
            case .formatted(let formatter): formatter.date(from: document.string(entry))
            }
        }

        /// Foundation's words for a string this strategy does not parse.
        var unparsedWords: String {
            switch self {
            case .iso8601: DecodingTexts.notISO8601
            case .formatted: DecodingTexts.notFormatted
            }
        }
    }

    // The one place the JSON decoders (the byte reader and the tape) turn what a date
    // strategy reads into a `Date`: each reader reads the number or the string its own
    // way, with its own errors, and asks here for the date. A new strategy is a case of
    // this switch, and the compiler asks for its conversion.

    /// What this strategy reads.
    var reading: Reading {
        switch self {
        case .deferredToDate: .number(.secondsSinceReferenceDate)
        case .secondsSince1970: .number(.secondsSince1970)
        case .millisecondsSince1970: .number(.millisecondsSince1970)
        case .iso8601: .string(.iso8601)
        case .formatted(let formatter): .string(.formatted(formatter))
        case .custom(let decode): .decoder(decode)
        }
    }
}

extension Date {
    /// Whether every comparison with this date means something: NaN and the
    /// infinities (through `secondsSince1970` with non-conforming floats, say) are refused.
    var isFiniteDate: Bool { timeIntervalSinceReferenceDate.isFinite }
}

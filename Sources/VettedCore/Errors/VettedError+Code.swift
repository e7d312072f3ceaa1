extension VettedError {
    /// What is wrong, named after the defect.
    ///
    /// Codes are an open set: later stages add their own, so a `switch` over
    /// codes needs a `default` and adding one breaks nobody.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        public var rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        public var description: String { rawValue }

        // MARK: Limits

        /// The input has more bytes than ``Limits/maxInputBytes``.
        public static let inputSizeLimitExceeded = Code("inputSizeLimitExceeded")
        /// Containers are nested deeper than ``Limits/maxDepth``.
        public static let depthLimitExceeded = Code("depthLimitExceeded")
        /// A string decodes to more bytes than ``Limits/maxStringBytes``.
        public static let stringLengthLimitExceeded = Code("stringLengthLimitExceeded")
        /// An array or object has more members than ``Limits/maxMembers``.
        public static let memberLimitExceeded = Code("memberLimitExceeded")
        /// The document holds more values than ``Limits/maxValues``.
        public static let valueLimitExceeded = Code("valueLimitExceeded")
        /// A number literal is longer than ``Limits/maxNumberLength``.
        public static let numberLengthLimitExceeded = Code("numberLengthLimitExceeded")
        /// The input expands (shared references, output written) past
        /// ``Limits/maxAmplification`` times its size (see *Amplification* in ``Limits``).
        public static let amplificationLimitExceeded = Code("amplificationLimitExceeded")

        // MARK: Vetted's own bugs

        /// An internal invariant failed: a bug in Vetted, not a defect of the input.
        /// Never turned into a value; the fuzz targets count it as a finding. Please report it.
        public static let internalInvariantViolated = Code("internalInvariantViolated")

        // MARK: Encoding

        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// The input is not UTF-8 at all (for example UTF-16).
        public static let unsupportedEncoding = Code("unsupportedEncoding")
        /// A leading byte order mark where the options do not allow one.
        public static let byteOrderMark = Code("byteOrderMark")

        // MARK: Syntax

        /// The input ended before the document was complete.
        public static let unexpectedEndOfInput = Code("unexpectedEndOfInput")
        /// A byte that cannot start or continue anything at this place.
        public static let unexpectedCharacter = Code("unexpectedCharacter")
        /// Something follows the complete top-level value.
        public static let trailingData = Code("trailingData")
        /// A comma right before a closing bracket or brace.
        public static let trailingComma = Code("trailingComma")
        /// Two members without a comma between them.
        public static let missingComma = Code("missingComma")
        /// An object key without a colon after it.
        public static let missingColon = Code("missingColon")
        /// An object member whose key is not a string.
        public static let expectedKey = Code("expectedKey")
        /// A `//` or `/*` comment; JSON has none.
        public static let commentNotAllowed = Code("commentNotAllowed")
        /// A misspelt `true`/`false`/`null`, or `NaN`/`Infinity`.
        public static let invalidLiteral = Code("invalidLiteral")
        /// A number with a superfluous leading zero (`01`).
        public static let leadingZero = Code("leadingZero")
        /// A malformed number (`-`, `1.`, `1e`).
        public static let invalidNumber = Code("invalidNumber")
        /// A string without its closing quote.
        public static let unterminatedString = Code("unterminatedString")
        /// An array without its closing bracket.
        public static let unterminatedArray = Code("unterminatedArray")
        /// An object without its closing brace.
        public static let unterminatedObject = Code("unterminatedObject")
        /// A raw control character (U+0000–U+001F) inside a string.
        public static let controlCharacterInString = Code("controlCharacterInString")
        /// A backslash followed by something that is not an escape.
        public static let invalidEscape = Code("invalidEscape")
        /// A `\u` not followed by four hexadecimal digits.
        public static let invalidUnicodeEscape = Code("invalidUnicodeEscape")
        /// A `\uD800`–`\uDFFF` escape that is not half of a valid pair.
        public static let loneSurrogate = Code("loneSurrogate")
        /// The same key twice in one object.
        public static let duplicateKey = Code("duplicateKey")

        // MARK: Values

        /// A number that does not fit the requested type.
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// A number with a fractional part where an integer is required.
        public static let numberNotInteger = Code("numberNotInteger")

        // MARK: Structure (well-formed, but not the model's shape)

        /// A value of another type than the one asked for (`DecodingError.typeMismatch`;
        /// in an archive, an object where a primitive was asked, an integer where a double is stored).
        public static let typeMismatch = Code("typeMismatch")
        /// A tagged union's object without its tag key.
        public static let missingTag = Code("missingTag")
        /// A tagged union's tag that names none of its cases (the message lists the known ones).
        public static let unknownTag = Code("unknownTag")
        /// `null`, or no value, where the model needs one (`DecodingError.valueNotFound`).
        public static let valueNotFound = Code("valueNotFound")
        /// A key the model needs is missing (`DecodingError.keyNotFound`); the path names the key.
        public static let keyNotFound = Code("keyNotFound")
        /// A value the model's type refuses, such as a raw value naming no case
        /// (`DecodingError.dataCorrupted` without a parse error).
        public static let invalidValue = Code("invalidValue")

        /// Whether the code is a structural one: the document is well-formed, but a
        /// value is not the model's shape (a number that does not fit its type included).
        public var isStructural: Bool {
            switch self {
            case .typeMismatch, .valueNotFound, .keyNotFound, .invalidValue, .numberOutOfRange, .numberNotInteger, .missingTag, .unknownTag: true
            default: false
            }
        }

        // MARK: Input

        /// The input could not be read at all.
        public static let unreadableInput = Code("unreadableInput")
        /// A record of a stream is longer than ``Limits/maxRecordBytes``; its bytes were passed over.
        public static let recordTooLarge = Code("recordTooLarge")

        /// The message used when an error is built without one.
        public var defaultMessage: String {
            switch self {
            case .inputSizeLimitExceeded: "input is larger than the size limit"
            case .internalInvariantViolated: "an internal invariant of Vetted failed (a bug in Vetted, not in the input)"
            case .depthLimitExceeded: "nesting is deeper than the depth limit"
            case .stringLengthLimitExceeded: "string is longer than the string limit"
            case .memberLimitExceeded: "container has more members than the member limit"
            case .valueLimitExceeded: "document has more values than the value limit"
            case .numberLengthLimitExceeded: "number literal is longer than the number limit"
            case .amplificationLimitExceeded: "input expands past the amplification limit"
            case .invalidUTF8: "invalid UTF-8"
            case .unsupportedEncoding: "input is not UTF-8"
            case .byteOrderMark: "byte order mark is not allowed"
            case .unexpectedEndOfInput: "unexpected end of input"
            case .unexpectedCharacter: "unexpected character"
            case .trailingData: "unexpected data after the top-level value"
            case .trailingComma: "trailing comma"
            case .missingComma: "expected ',' between members"
            case .missingColon: "expected ':' after the key"
            case .expectedKey: "expected a string key"
            case .commentNotAllowed: "comments are not allowed"
            case .invalidLiteral: "invalid literal"
            case .leadingZero: "number has a leading zero"
            case .invalidNumber: "invalid number"
            case .unterminatedString: "unterminated string"
            case .unterminatedArray: "unterminated array"
            case .unterminatedObject: "unterminated object"
            case .controlCharacterInString: "control character in string"
            case .invalidEscape: "invalid escape sequence"
            case .invalidUnicodeEscape: "invalid \\u escape"
            case .loneSurrogate: "lone UTF-16 surrogate"
            case .duplicateKey: "duplicate key"
            case .numberOutOfRange: "number is out of range"
            case .numberNotInteger: "number is not an integer"
            case .unreadableInput: "input cannot be read"
            case .recordTooLarge: "record is longer than the record limit"
            default: rawValue
            }
        }
    }
}

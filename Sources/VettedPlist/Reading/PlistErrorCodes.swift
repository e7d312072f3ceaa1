public import VettedCore

extension VettedError.Code {
    // MARK: Binary property lists

    /// The input does not start with `bplist00`, `<?xml` or `<plist`.
    public static let unknownPlistFormat = VettedError.Code("unknownPlistFormat")
    /// The 32-byte trailer is missing or inconsistent (sizes, counts, offsets).
    public static let invalidTrailer = VettedError.Code("invalidTrailer")
    /// An offset-table entry points outside the object area.
    public static let offsetOutOfBounds = VettedError.Code("offsetOutOfBounds")
    /// An object reference names an object that does not exist.
    public static let referenceOutOfBounds = VettedError.Code("referenceOutOfBounds")
    /// Two objects share bytes.
    public static let overlappingObjects = VettedError.Code("overlappingObjects")
    /// A container contains itself, directly or through others.
    public static let cyclicReference = VettedError.Code("cyclicReference")
    /// An object marker byte of no known type.
    public static let invalidObjectMarker = VettedError.Code("invalidObjectMarker")
    /// An object extends past the object area.
    public static let truncatedObject = VettedError.Code("truncatedObject")
    /// An integer outside the signed and unsigned 64-bit range.
    public static let integerOutOfRange = VettedError.Code("integerOutOfRange")
    /// A UTF-16 string with an unpaired surrogate.
    public static let invalidUTF16 = VettedError.Code("invalidUTF16")
    /// A dictionary key that is not a string.
    public static let nonStringKey = VettedError.Code("nonStringKey")

    // MARK: XML property lists

    /// XML that is not well-formed (unclosed tags, stray text, bad attributes).
    public static let malformedXML = VettedError.Code("malformedXML")
    /// A DTD internal subset, entity declaration or other XML feature outside the plist subset.
    public static let unsupportedXMLFeature = VettedError.Code("unsupportedXMLFeature")
    /// An entity reference other than the five predefined ones or a character reference.
    public static let unknownEntity = VettedError.Code("unknownEntity")
    /// An element that is not part of the plist format, or in the wrong place.
    public static let unexpectedElement = VettedError.Code("unexpectedElement")
    /// Malformed base64 in `<data>`.
    public static let invalidBase64 = VettedError.Code("invalidBase64")
    /// A `<date>` that is not `YYYY-MM-DDTHH:MM:SSZ`.
    public static let invalidDate = VettedError.Code("invalidDate")
    /// An `<integer>` or `<real>` that does not parse.
    public static let invalidNumberText = VettedError.Code("invalidNumberText")

    // MARK: Writing

    /// A value the target format cannot represent (for example a UID in XML
    /// written without CF$UID support, or a control character in XML).
    public static let unrepresentableValue = VettedError.Code("unrepresentableValue")
}

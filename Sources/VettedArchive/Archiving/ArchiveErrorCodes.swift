public import VettedCore

extension VettedError.Code {
    /// The bytes are a property list but not an NSKeyedArchiver archive (`$archiver`, `$version`, `$top`, `$objects`).
    public static let notAKeyedArchive = Self("notAKeyedArchive")
    /// The archive's structure is broken: a UID out of range, a `$class` that is not a class
    /// dictionary, `NS.keys` and `NS.objects` of different lengths, an object of a kind archives never hold.
    public static let archiveCorrupted = Self("archiveCorrupted")
    /// The archive holds, at this place, a class that is not among the classes allowed here.
    public static let classNotAllowed = Self("classNotAllowed")
    /// An allowed class that does not support secure coding, or that inherits its conformance
    /// from a superclass without declaring its own.
    public static let secureCodingNotSupported = Self("secureCodingNotSupported")
    /// An object that contains itself, directly or not: value types cannot be built from it.
    public static let archiveCycle = Self("archiveCycle")
    /// The type's own `init?(coder:)` reported a failure with `failWithError` (a generic one).
    public static let decodingFailed = Self("decodingFailed")
    /// A value the archiver cannot write (a type without secure coding when it is required).
    public static let unencodableValue = Self("unencodableValue")
}

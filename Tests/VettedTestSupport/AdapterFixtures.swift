// Request bodies for the framework adapters' tests: the talk's Listing, valid and not.

/// Bodies the adapters' tests send, as the talk's `Listing`.
public enum AdapterFixtures {
    /// A listing every rule accepts.
    public static let valid = #"{"id":1,"name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
    /// Well-formed and of the right shape, but two rules refuse it: `$.price` and `$.tags`.
    public static let breaksRules = #"{"id":1,"name":"Lamp","description":"A desk lamp","price":"ten","sold":false,"url":"https://example.com/1","tags":[],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
    /// Not JSON: the object is cut off after `"id":1,` (byte 8).
    public static let malformed = #"{"id":1,"#
    /// JSON, but `id` is a string: a type mismatch at `$.id`.
    public static let wrongShape = #"{"id":"1","name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
    /// JSON of the wrong shape in four places: `id` a string, `price` missing, `sold` null,
    /// `url` a number. Under `.collect` each is one entry, in the order the fields are declared.
    public static let fourDefects = #"{"id":"1","name":"Lamp","description":"A desk lamp","sold":null,"url":5,"tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
    /// The entries of ``fourDefects`` (stage, pointer, path, code), in order.
    public static let fourDefectsEntries = [
        "structure /id $.id typeMismatch", "structure /price $.price keyNotFound", "structure /sold $.sold typeMismatch",
        "structure /url $.url typeMismatch",
    ]
    /// A duplicate key, which Foundation's decoder accepts and Vetted refuses.
    public static let duplicateKey = #"{"id":1,"id":2,"name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
}

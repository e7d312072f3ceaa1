public import Foundation
import VettedCore
import VettedRules

/// A type that reads itself from, and writes itself to, a keyed archive — safely.
///
/// The Swift form of `NSSecureCoding`. An archive names the class of every
/// object; ``KeyedUnarchiver`` instantiates a type only when it is among the
/// types the current decode call allows (or a subclass registered for one of
/// them with ``KeyedUnarchiver/setClass(_:forClassName:)``), it returns `true`
/// from ``supportsSecureCoding``, and it declares its own ``archiveClassNames``:
/// a subclass that only inherits its superclass's conformance is refused, as
/// the talk "Data You Can Trust" requires.
///
/// ```swift
/// final class Purchase: SecureCoding {
///     static let supportsSecureCoding = true
///     static let archiveClassNames = ["Purchase"]
///     let listing: Listing, date: Date
///     init?(coder: KeyedUnarchiver) {
///         guard let listing = coder.decodeObject(of: Listing.self, forKey: "listing"),
///               let date = coder.decodeObject(of: Date.self, forKey: "date") else { return nil }
///         guard date >= launch else { coder.failWithError(…); return nil }
///         (self.listing, self.date) = (listing, date)
///     }
///     func encode(with coder: KeyedArchiver) {
///         coder.encode(listing, forKey: "listing")
///         coder.encode(date, forKey: "date")
///     }
/// }
/// ```
///
/// Structs conform the same way. Apple's value classes map to Swift types
/// that conform already: `NSString` ↔ `String`, `NSNumber` ↔ `Int`, `Double`,
/// `Bool` (and the other integer widths, `Float`), `NSData` ↔ `Data`,
/// `NSDate` ↔ `Date`, `NSUUID` ↔ `UUID`, `NSURL` ↔ `URL`, `NSNull` ↔
/// ``ArchiveNull``, `NSArray` ↔ `Array`, `NSDictionary` ↔ `Dictionary`,
/// `NSSet` ↔ `Set`, `NSOrderedSet` ↔ ``ArchiveOrderedSet``; ``ArchivedValue``
/// reads any mix of them.
public protocol SecureCoding {
    /// Must be `true` for the unarchiver to instantiate the type when secure coding is required.
    static var supportsSecureCoding: Bool { get }
    /// The class names this type reads; the first is the one it is written as.
    /// Each class declares its own: a subclass that inherits them is refused.
    static var archiveClassNames: [String] { get }
    /// The class chain written in `$classes` after the class name (default `["NSObject"]`).
    static var archiveSuperclassNames: [String] { get }
    /// Reads the value from the keys of its archived object. Returns nil, or calls
    /// ``KeyedUnarchiver/failWithError(_:)``, when they are not acceptable.
    init?(coder: KeyedUnarchiver)
    /// Writes the value as keys of its archived object.
    func encode(with coder: KeyedArchiver)
}

extension SecureCoding {
    public static var archiveSuperclassNames: [String] { ["NSObject"] }
}

/// How a value is stored: inline as a plist primitive, or as an object dictionary.
enum ArchiveForm {
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case bool(Bool)
    case data(Data)
}

/// Built-in value types that archives store as plist primitives, not as keyed objects.
protocol PrimitiveArchivable: SecureCoding {
    var archiveForm: ArchiveForm { get }
    init?(archiveForm: ArchiveForm)
}

extension PrimitiveArchivable {
    public static var supportsSecureCoding: Bool { true }
    // Primitives never reach these: the unarchiver and archiver handle them inline.
    public init?(coder: KeyedUnarchiver) { return nil }
    public func encode(with coder: KeyedArchiver) {}
}

extension String: SecureCoding, PrimitiveArchivable {
    public static var archiveClassNames: [String] { ["NSString", "NSMutableString"] }
    /// The keyed form (`NSMutableString`): `NS.string`.
    public init?(coder: KeyedUnarchiver) {
        guard let string = coder.decodeObject(of: String.self, forKey: "NS.string") else {
            if coder.error == nil { coder.failWithError(coder.corrupted("a string object without NS.string")) }
            return nil
        }
        self = string
    }
    var archiveForm: ArchiveForm { .string(self) }
    init?(archiveForm: ArchiveForm) {
        guard case .string(let value) = archiveForm else { return nil }
        self = value
    }
}

extension Data: SecureCoding, PrimitiveArchivable {
    public static var archiveClassNames: [String] { ["NSData", "NSMutableData"] }
    /// The keyed form (`NSMutableData`): `NS.data` (data, inline or an object) or `NS.bytes`.
    public init?(coder: KeyedUnarchiver) {
        if let bytes = coder.decodeBytes(forKey: "NS.bytes") {
            self = Data(bytes)
            return
        }
        guard coder.error == nil, coder.containsValue(forKey: "NS.data") else {
            if coder.error == nil { coder.failWithError(coder.corrupted("a data object without NS.data")) }
            return nil
        }
        if let inline = coder.decodeBytesIfInline(forKey: "NS.data") {
            self = Data(inline)
        } else if let object = coder.decodeObject(of: Data.self, forKey: "NS.data") {
            self = object
        } else {
            return nil
        }
    }
    var archiveForm: ArchiveForm { .data(self) }
    init?(archiveForm: ArchiveForm) {
        guard case .data(let value) = archiveForm else { return nil }
        self = value
    }
}

extension Bool: SecureCoding, PrimitiveArchivable {
    public static var archiveClassNames: [String] { ["NSNumber"] }
    var archiveForm: ArchiveForm { .bool(self) }
    init?(archiveForm: ArchiveForm) {
        guard case .bool(let value) = archiveForm else { return nil }
        self = value
    }
}

extension Double: SecureCoding, PrimitiveArchivable {
    public static var archiveClassNames: [String] { ["NSNumber"] }
    var archiveForm: ArchiveForm { .real(self) }
    init?(archiveForm: ArchiveForm) {
        guard case .real(let value) = archiveForm else { return nil }
        self = value
    }
}

extension Float: SecureCoding, PrimitiveArchivable {
    public static var archiveClassNames: [String] { ["NSNumber"] }
    var archiveForm: ArchiveForm { .real(Double(self)) }
    init?(archiveForm: ArchiveForm) {
        guard case .real(let value) = archiveForm, !value.isFinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
            return nil
        }
        self = Float(value)
    }
}

/// Integers of every width, stored as plist integers; a stored value that does not fit is a type mismatch.
protocol IntegerArchivable: PrimitiveArchivable, FixedWidthInteger {}

extension IntegerArchivable {
    public static var archiveClassNames: [String] { ["NSNumber"] }
    var archiveForm: ArchiveForm {
        if let signed = Int64(exactly: self) { return .integer(signed) }
        return .unsignedInteger(UInt64(truncatingIfNeeded: self))
    }
    init?(archiveForm: ArchiveForm) {
        switch archiveForm {
        case .integer(let value): guard let exact = Self(exactly: value) else { return nil }; self = exact
        case .unsignedInteger(let value): guard let exact = Self(exactly: value) else { return nil }; self = exact
        default: return nil
        }
    }
}

extension Int: SecureCoding, IntegerArchivable {}
extension Int8: SecureCoding, IntegerArchivable {}
extension Int16: SecureCoding, IntegerArchivable {}
extension Int32: SecureCoding, IntegerArchivable {}
extension Int64: SecureCoding, IntegerArchivable {}
extension UInt: SecureCoding, IntegerArchivable {}
extension UInt8: SecureCoding, IntegerArchivable {}
extension UInt16: SecureCoding, IntegerArchivable {}
extension UInt32: SecureCoding, IntegerArchivable {}
extension UInt64: SecureCoding, IntegerArchivable {}

extension Date: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSDate"] }
    /// `NS.time`: seconds since 2001-01-01, a double.
    public init?(coder: KeyedUnarchiver) {
        guard coder.containsValue(forKey: "NS.time") else {
            coder.failWithError(coder.corrupted("an NSDate without NS.time"))
            return nil
        }
        let time = coder.decodeDouble(forKey: "NS.time")
        guard coder.error == nil else { return nil }
        // NaN or an infinity passes every comparison a date rule makes: never a date.
        guard time.isFinite else {
            coder.failWithError(
                VettedError(code: .nonFiniteDate, path: coder.codingPath.appending(.key("NS.time")), message: "NS.time is \(time), not a finite number of seconds"))
            return nil
        }
        self.init(timeIntervalSinceReferenceDate: time)
    }
    public func encode(with coder: KeyedArchiver) { coder.encode(timeIntervalSinceReferenceDate, forKey: "NS.time") }
}

extension UUID: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSUUID"] }
    /// `NS.uuidbytes`: the 16 bytes.
    public init?(coder: KeyedUnarchiver) {
        guard let bytes = coder.decodeBytes(forKey: "NS.uuidbytes") else {
            if coder.error == nil { coder.failWithError(coder.corrupted("an NSUUID without NS.uuidbytes")) }
            return nil
        }
        guard bytes.count == 16 else {
            coder.failWithError(coder.corrupted("NS.uuidbytes holds \(bytes.count) bytes, not 16"))
            return nil
        }
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
    public func encode(with coder: KeyedArchiver) {
        let u = uuid
        coder.encodeBytes([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15], forKey: "NS.uuidbytes")
    }
}

extension URL: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSURL"] }
    /// `NS.base` (an NSURL or null) and `NS.relative` (a string).
    public init?(coder: KeyedUnarchiver) {
        let base = coder.decodeObject(of: URL.self, forKey: "NS.base")
        guard let relative = coder.decodeObject(of: String.self, forKey: "NS.relative") else {
            if coder.error == nil { coder.failWithError(coder.corrupted("an NSURL without NS.relative")) }
            return nil
        }
        guard let url = URL(string: relative, relativeTo: base) else {
            coder.failWithError(coder.corrupted("NS.relative is not a URL"))
            return nil
        }
        self = url
    }
    public func encode(with coder: KeyedArchiver) {
        coder.encode(nil as URL?, forKey: "NS.base")
        coder.encode(absoluteString, forKey: "NS.relative")
    }
}

/// `NSNull`.
public struct ArchiveNull: SecureCoding, Hashable, Sendable {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSNull"] }
    public init() {}
    public init?(coder: KeyedUnarchiver) {}
    public func encode(with coder: KeyedArchiver) {}
}

extension Array: SecureCoding where Element: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSArray", "NSMutableArray"] }
    /// `NS.objects`: the elements, each of type `Element`.
    public init?(coder: KeyedUnarchiver) {
        guard let elements = coder.decodeElements(ofClasses: [Element.self]) else { return nil }
        var array: [Element] = []
        array.reserveCapacity(elements.count)
        for element in elements {
            guard let typed = element as? Element else { return nil }
            array.append(typed)
        }
        self = array
    }
    public func encode(with coder: KeyedArchiver) { coder.encodeElements(self) }
}

extension Set: SecureCoding where Element: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSSet", "NSMutableSet"] }
    public init?(coder: KeyedUnarchiver) {
        guard let elements = [Element](coder: coder) else { return nil }
        self = Set(elements)
    }
    public func encode(with coder: KeyedArchiver) { coder.encodeElements(Array(self)) }
}

/// `NSOrderedSet`: elements in order, without repeats.
public struct ArchiveOrderedSet<Element: SecureCoding & Hashable>: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSOrderedSet", "NSMutableOrderedSet"] }
    public var elements: [Element]
    public init(_ elements: [Element]) {
        var seen = Set<Element>()
        self.elements = elements.filter { seen.insert($0).inserted }
    }
    public init?(coder: KeyedUnarchiver) {
        guard let elements = [Element](coder: coder) else { return nil }
        self.init(elements)
    }
    public func encode(with coder: KeyedArchiver) { coder.encodeElements(elements) }
}

extension Dictionary: SecureCoding where Key: SecureCoding, Value: SecureCoding {
    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] { ["NSDictionary", "NSMutableDictionary"] }
    /// `NS.keys` and `NS.objects`, of equal length; a repeated key is corrupt.
    public init?(coder: KeyedUnarchiver) {
        guard let pairs = coder.decodePairs(keyClasses: [Key.self], objectClasses: [Value.self]) else { return nil }
        var dictionary: [Key: Value] = [:]
        for (index, (key, value)) in pairs.enumerated() {
            guard let key = key as? Key, let value = value as? Value else { return nil }
            guard dictionary.updateValue(value, forKey: key) == nil else {
                coder.failWithError(coder.corrupted("NS.keys repeats a key (at index \(index))"))
                return nil
            }
        }
        self = dictionary
    }
    public func encode(with coder: KeyedArchiver) {
        coder.encodePairs(keys.map { $0 }, values.map { $0 })
    }
}

/// An `NSArray` read by an `ofClasses:` call: its elements, each one of the
/// call's classes.
struct ArchivedList: SecureCoding {
    static var supportsSecureCoding: Bool { true }
    static var archiveClassNames: [String] { ["NSArray", "NSMutableArray"] }
    let elements: [Any]

    init?(coder: KeyedUnarchiver) {
        guard let classes = coder.takePendingClasses(), let elements = coder.decodeElements(ofClasses: classes.objects) else { return nil }
        self.elements = elements
    }

    func encode(with coder: KeyedArchiver) {}
}

/// An `NSDictionary` read by an `ofClasses:` call: keys and values each of the call's classes.
struct ArchivedMap: SecureCoding {
    static var supportsSecureCoding: Bool { true }
    static var archiveClassNames: [String] { ["NSDictionary", "NSMutableDictionary"] }
    let pairs: [AnyHashable: Any]

    init?(coder: KeyedUnarchiver) {
        guard let classes = coder.takePendingClasses(),
            let pairs = coder.decodePairs(keyClasses: classes.keys, objectClasses: classes.objects)
        else { return nil }
        var dictionary: [AnyHashable: Any] = [:]
        for (index, (key, value)) in pairs.enumerated() {
            guard let key = key as? AnyHashable else {
                coder.failWithError(coder.corrupted("NS.keys holds a key that cannot be hashed (at index \(index))"))
                return nil
            }
            guard dictionary.updateValue(value, forKey: key) == nil else {
                coder.failWithError(coder.corrupted("NS.keys repeats a key (at index \(index))"))
                return nil
            }
        }
        self.pairs = dictionary
    }

    func encode(with coder: KeyedArchiver) {}
}

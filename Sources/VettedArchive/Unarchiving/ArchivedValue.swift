public import Foundation

/// Any mix of Apple's value classes, read without naming them in advance:
/// what `NSKeyedUnarchiver` would give for a property-list-like archive, and
/// never an instance of any other class.
public indirect enum ArchivedValue: SecureCoding, Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    case url(URL)
    case null
    case array([ArchivedValue])
    case set([ArchivedValue])
    case orderedSet([ArchivedValue])
    case dictionary([ArchivedValue], [ArchivedValue])

    public static var supportsSecureCoding: Bool { true }
    public static var archiveClassNames: [String] {
        [
            "NSString", "NSMutableString", "NSData", "NSMutableData", "NSNumber", "NSDate", "NSUUID", "NSURL", "NSNull",
            "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet",
            "NSDictionary", "NSMutableDictionary",
        ]
    }

    init?(primitive form: ArchiveForm) {
        switch form {
        case .string(let value): self = .string(value)
        case .integer(let value): self = .integer(value)
        case .unsignedInteger(let value): self = .unsignedInteger(value)
        case .real(let value): self = .real(value)
        case .bool(let value): self = .bool(value)
        case .data(let value): self = .data(value)
        }
    }

    public init?(coder: KeyedUnarchiver) {
        switch coder.currentClassName {
        case "NSDate": guard let date = Date(coder: coder) else { return nil }; self = .date(date)
        case "NSUUID": guard let uuid = UUID(coder: coder) else { return nil }; self = .uuid(uuid)
        case "NSURL": guard let url = URL(coder: coder) else { return nil }; self = .url(url)
        case "NSNull": self = .null
        case "NSString", "NSMutableString":
            guard let string = coder.decodeObject(of: String.self, forKey: "NS.string") else { return nil }
            self = .string(string)
        case "NSData", "NSMutableData":
            guard let data = coder.decodeObject(of: Data.self, forKey: "NS.data") ?? coder.decodeBytes(forKey: "NS.bytes").map({ Data($0) })
            else { return nil }
            self = .data(data)
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            guard let elements = coder.decodeElements(ofClasses: [ArchivedValue.self]) else { return nil }
            let values = elements.compactMap { $0 as? ArchivedValue }
            switch coder.currentClassName {
            case "NSSet", "NSMutableSet": self = .set(values)
            case "NSOrderedSet", "NSMutableOrderedSet": self = .orderedSet(values)
            default: self = .array(values)
            }
        default:
            guard let pairs = coder.decodePairs(keyClasses: [ArchivedValue.self], objectClasses: [ArchivedValue.self]) else { return nil }
            self = .dictionary(pairs.compactMap { $0.0 as? ArchivedValue }, pairs.compactMap { $0.1 as? ArchivedValue })
        }
    }

    public func encode(with coder: KeyedArchiver) {
        // Written through KeyedArchiver.encode(_:forKey:), which stores each case as its class.
    }
}

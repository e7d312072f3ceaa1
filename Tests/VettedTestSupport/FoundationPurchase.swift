// Foundation's NSSecureCoding classes for the talk's purchase model (JunkModel's
// `Purchase` and `ArchiveListing`): the peer in interop tests and in `compare archive`.

public import Foundation

/// Foundation's own classes for the same model: the peer in interop tests and in `compare archive`.
public final class FoundationListing: NSObject, NSSecureCoding, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }
    public let id: Int
    public let name: String
    public let tags: [String]
    public init(id: Int, name: String, tags: [String]) {
        self.id = id
        self.name = name
        self.tags = tags
    }
    public init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String?,
            let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String]
        else { return nil }
        id = coder.decodeInteger(forKey: "id")
        self.name = name
        self.tags = tags
    }
    public func encode(with coder: NSCoder) {
        coder.encode(id, forKey: "id")
        coder.encode(name as NSString, forKey: "name")
        coder.encode(tags.map { $0 as NSString } as NSArray, forKey: "tags")
    }
}

public final class FoundationPurchase: NSObject, NSSecureCoding, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }
    public let listing: FoundationListing
    public let date: Date
    public let receipt: Data
    public init(listing: FoundationListing, date: Date, receipt: Data) {
        self.listing = listing
        self.date = date
        self.receipt = receipt
    }
    public init?(coder: NSCoder) {
        guard let listing = coder.decodeObject(of: FoundationListing.self, forKey: "listing"),
            let date = coder.decodeObject(of: NSDate.self, forKey: "date") as Date?,
            let receipt = coder.decodeObject(of: NSData.self, forKey: "receipt") as Data?
        else { return nil }
        self.listing = listing
        self.date = date
        self.receipt = receipt
    }
    public func encode(with coder: NSCoder) {
        coder.encode(listing, forKey: "listing")
        coder.encode(date as NSDate, forKey: "date")
        coder.encode(receipt as NSData, forKey: "receipt")
    }
}


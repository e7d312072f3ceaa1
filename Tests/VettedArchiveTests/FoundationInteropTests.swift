import Foundation
import Testing
import VettedArchive
import VettedCore
import VettedTestSupport

@Suite(.serialized) struct FoundationInteropTests {
    /// Vetted writes, Foundation's NSKeyedUnarchiver reads (valid data only: Foundation here
    /// kills the process on anything unexpected).
    @Test func foundationReadsVettedArchives() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Purchase.sample)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.setClass(FoundationPurchase.self, forClassName: "Purchase")
        unarchiver.setClass(FoundationListing.self, forClassName: "Listing")
        let purchase = unarchiver.decodeObject(of: FoundationPurchase.self, forKey: NSKeyedArchiveRootObjectKey)
        #expect(unarchiver.error == nil)
        #expect(purchase?.listing.name == "Guitar" && purchase?.listing.id == 1 && purchase?.listing.tags == ["music", "acoustic"])
        #expect(purchase?.date == Purchase.sample.date && purchase?.receipt == Purchase.sample.receipt)

        let strings = try KeyedArchiver.archivedData(withRootObject: ["x": ["a", "b"], "y": []] as [String: [String]])
        let read = try NSKeyedUnarchiver.unarchivedObject(
            ofClasses: [NSDictionary.self, NSArray.self, NSString.self], from: strings) as? [String: [String]]
        #expect(read == ["x": ["a", "b"], "y": []])
        let mixed = try KeyedArchiver.archivedData(withRootObject: [UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34") ?? UUID()])
        let uuids = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSUUID.self], from: mixed) as? [UUID]
        #expect(uuids?.first?.uuidString == "0AD863BA-7584-40CF-8896-BD87B3280C34")
    }

    /// Foundation's NSKeyedArchiver writes, Vetted reads, to equal values.
    @Test func vettedReadsFoundationArchives() throws {
        // Foundation on Linux ignores setClassName(_:for:) and writes module-qualified names:
        // Vetted maps them with setClass, as Foundation's reader would.
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        let original = FoundationPurchase(
            listing: FoundationListing(id: 1, name: "Guitar", tags: ["music", "acoustic"]),
            date: Purchase.sample.date, receipt: Purchase.sample.receipt)
        archiver.encode(original, forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        let reader = try KeyedUnarchiver(forReadingFrom: archiver.encodedData)
        // The names Foundation wrote, module-qualified ("VettedTestSupport.FoundationPurchase").
        reader.setClass(Purchase.self, forClassName: NSStringFromClass(FoundationPurchase.self))
        reader.setClass(ArchiveListing.self, forClassName: NSStringFromClass(FoundationListing.self))
        let purchase = try reader.finish(reader.decodeObject(of: Purchase.self, forKey: KeyedUnarchiver.rootKey))
        #expect(purchase == Purchase.sample)
        // Without the mapping, Foundation's names are not allowed.
        let unmapped = archiveError { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: archiver.encodedData) }.vetted
        #expect(unmapped?.code == .classNotAllowed)

        let values = try NSKeyedArchiver.archivedData(
            withRootObject: ["names": ["a", "b"], "count": 3, "when": Date(timeIntervalSinceReferenceDate: 7)] as NSDictionary,
            requiringSecureCoding: true)
        let read = try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: values)
        guard case .dictionary(let keys, let objects)? = read else {
            Issue.record("not a dictionary: \(String(describing: read))")
            return
        }
        let entries = Dictionary(uniqueKeysWithValues: zip(keys, objects))
        #expect(entries[.string("names")] == .array([.string("a"), .string("b")]))
        #expect(entries[.string("count")] == .integer(3))
        #expect(entries[.string("when")] == .date(Date(timeIntervalSinceReferenceDate: 7)))
    }
}

// The keyed-archives article's sample (KeyedArchivesOverview) and the property-list
// article's, which reads its archive, compiled and run. Each top-level declaration of
// the sample is private here (the other articles' samples declare a `Listing` too), so
// the sample is split into regions around those `private` lines; DocSampleTests joins them.

import Foundation
import Testing
import Vetted

private
// sample: KeyedArchivesOverview.md#1
struct Listing: Codable, Equatable { var id: Int; var name: String }
extension Listing: Validatable {
    static let validation = Validation<Listing> { Field("name", Rule<String>.length(1...200)) }
}
// end sample
private
// sample: KeyedArchivesOverview.md#1
enum PurchaseError: Error { case tooEarly }
// end sample
private
// sample: KeyedArchivesOverview.md#1
let launch = Date(timeIntervalSince1970: 1_525_132_800)   // 2018-05-01, the app's launch

// end sample
private
// sample: KeyedArchivesOverview.md#1
final class Purchase: SecureCoding {
    static let supportsSecureCoding = true
    static let archiveClassNames = ["Purchase"]
    let listing: Listing        // a Codable struct, stored as Foundation stores one
    let date: Date

    init(listing: Listing, date: Date) { (self.listing, self.date) = (listing, date) }
    init?(coder: KeyedUnarchiver) {
        guard let listing = coder.decodeDecodable(Listing.self, forKey: "listing"),   // with Listing's rules
              let date = coder.decodeObject(of: Date.self, forKey: "date") else { return nil }   // only a date here
        guard date >= launch else { coder.failWithError(PurchaseError.tooEarly); return nil }
        (self.listing, self.date) = (listing, date)
    }
    func encode(with coder: KeyedArchiver) {
        coder.encodeEncodable(listing, forKey: "listing")
        coder.encode(date, forKey: "date")
    }
}

// end sample

@Suite struct ArchiveSampleTests {
    /// Archives: a purchase round-trips; one dated before launch fails with its own error,
    /// and one whose listing breaks Listing's rule does not decode.
    @Test func archives() throws {
        // sample: KeyedArchivesOverview.md#1
        let purchase = Purchase(listing: Listing(id: 1, name: "Lamp"), date: Date())
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        let again = try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: data)
        // end sample
        #expect(again?.listing == purchase.listing)
        #expect(again?.date == purchase.date)
        let early = try KeyedArchiver.archivedData(
            withRootObject: Purchase(listing: purchase.listing, date: Date(timeIntervalSince1970: 0)), requiringSecureCoding: true)
        #expect(throws: PurchaseError.tooEarly) { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: early) }
        let unnamed = try KeyedArchiver.archivedData(
            withRootObject: Purchase(listing: Listing(id: 2, name: ""), date: Date()), requiringSecureCoding: true)
        let errors = #expect(throws: ValidationErrors.self) { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: unnamed) }
        #expect(errors?.errors.map(\.code) == [.empty])
        #expect(errors?.errors.map(\.path.description) == ["$.name"])
    }

    /// Property lists: an archive's root UID, written back in both formats.
    @Test func propertyLists() throws {
        let purchase = Purchase(listing: Listing(id: 1, name: "Lamp"), date: Date())
        let data = try KeyedArchiver.archivedData(withRootObject: purchase, requiringSecureCoding: true)
        // sample: PropertyLists.md#1
        let value = try PlistParser().parse(data)          // bplist00 or XML, detected from the first bytes
        let root = value["$top"]?["root"]?.uidValue         // PlistValue: dictionary, array, string, data,
                                                           // date, integer, real, bool, uid
        let binary = PlistWriter.binary(value)             // [UInt8], bplist00
        let xml = try PlistWriter.xml(value)               // [UInt8], XML (throws for what XML cannot hold)
        // end sample
        #expect(root == 1)
        #expect(try PlistParser().parse(binary) == value)
        #expect(try PlistParser().parse(xml) == value)
    }
}

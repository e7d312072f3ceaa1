import ArgumentParser
import Foundation
import Vetted

// `Purchase`, `ArchiveListing` and Foundation's peers come from TalkPurchase.swift,
// a link to the tests' shared definition.

/// Archive and unarchive COUNT purchases with Vetted and with Foundation.
struct ArchiveThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Keyed archives of COUNT purchases: vetted.archive, vetted.unarchive, foundation.NSKeyedArchiver, foundation.NSKeyedUnarchiver.",
        discussion: """
            Each purchase holds a listing (id, name, tags), a date and a receipt. Both sides archive
            the same purchases (as their own classes) with secure coding required, and read their own
            archives back. Lines: name<TAB>objects/s<TAB>ratio to the matching Foundation line.
            """)

    @Argument(help: "How many purchases.")
    var count = 10_000

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let purchases = (0..<count).map { index in
            Purchase(
                listing: ArchiveListing(id: index + 1, name: "Listing \(index)", tags: ["music", index.isMultiple(of: 2) ? "vintage" : "tools"]),
                date: Date(timeIntervalSince1970: 1_600_000_000 + Double(index)), receipt: Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* index) }))
        }
        let peers = purchases.map { purchase in
            FoundationPurchase(
                listing: FoundationListing(id: purchase.listing.id, name: purchase.listing.name, tags: purchase.listing.tags),
                date: purchase.date, receipt: purchase.receipt)
        }
        let limits = Limits(maxValues: .max)
        let vettedData = try KeyedArchiver.archivedData(withRootObject: purchases, limits: limits)
        let foundationData = try NSKeyedArchiver.archivedData(withRootObject: peers as NSArray, requiringSecureCoding: true)
        let foundationClasses: [AnyClass] = [NSArray.self, FoundationPurchase.self]

        // Check before timing: each side reads back what it wrote, and Foundation reads Vetted's archive.
        let ours = try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Purchase.self, from: vettedData, limits: limits)
        guard ours == purchases else { throw ValidationError("Vetted did not read back its purchases") }
        let theirs = try NSKeyedUnarchiver.unarchivedObject(ofClasses: foundationClasses, from: foundationData) as? [FoundationPurchase]
        guard theirs?.count == count else { throw ValidationError("Foundation did not read back its purchases") }
        let reader = try NSKeyedUnarchiver(forReadingFrom: vettedData)
        reader.setClass(FoundationPurchase.self, forClassName: "Purchase")
        reader.setClass(FoundationListing.self, forClassName: "Listing")
        let crossed = reader.decodeObject(of: foundationClasses, forKey: NSKeyedArchiveRootObjectKey) as? [FoundationPurchase]
        guard crossed?.count == count, crossed?.last?.listing.name == purchases.last?.listing.name else {
            throw ValidationError("Foundation could not read Vetted's archive")
        }

        let medians = try timing.medians([
            { try KeyedArchiver.archivedData(withRootObject: purchases, limits: limits) },
            { try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Purchase.self, from: vettedData, limits: limits) },
            { try NSKeyedArchiver.archivedData(withRootObject: peers as NSArray, requiringSecureCoding: true) },
            { try NSKeyedUnarchiver.unarchivedObject(ofClasses: foundationClasses, from: foundationData) },
        ])
        func line(_ name: String, _ seconds: Double, _ peer: Double?) -> String {
            let rate = Double(count) / seconds
            return "\(name)\t\(String(format: "%.0f", rate))\t\(peer.map { String(format: "%.2f", $0 / seconds) } ?? "-")"
        }
        print(line("vetted.archive", medians[0], medians[2]))
        print(line("vetted.unarchive", medians[1], medians[3]))
        print(line("foundation.NSKeyedArchiver", medians[2], nil))
        print(line("foundation.NSKeyedUnarchiver", medians[3], nil))
        print("archive bytes\tvetted \(vettedData.count)\tfoundation \(foundationData.count)")
    }
}

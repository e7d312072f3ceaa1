public import Foundation
import GRDB
public import JunkModel

/// The server's listings, in SQLite through GRDB.
///
/// The database is created and seeded with ``Listing/samples`` on first run.
/// Tags are stored as a comma-separated list of the enum's raw values; dates
/// as seconds since 1970. Every listing read back is checked against the
/// talk's rules before it is served: the database is input too. Reads and
/// writes are GRDB's async ones: they never block the server's threads.
public final class ListingsStore: Sendable {
    private let database: DatabaseQueue

    /// Opens (creating and seeding when new) the database at `path`.
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
        try Self.migrator.migrate(database)
    }

    /// An in-memory store, seeded: for tests.
    public init() throws {
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("listings-v1") { db in
            try db.create(table: "listing") { table in
                table.primaryKey("id", .integer)
                table.column("name", .text).notNull()
                table.column("description", .text).notNull()
                table.column("price", .text).notNull()
                table.column("sold", .boolean).notNull()
                table.column("url", .text).notNull()
                table.column("tags", .text).notNull()
                table.column("created", .double).notNull()
                table.column("last_updated", .double).notNull()
            }
            for listing in Listing.samples { try insert(listing, into: db) }
        }
        migrator.registerMigration("price-changes-v1") { db in
            try db.create(table: "price_change") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("id", .integer).notNull()
                table.column("old_price", .text).notNull()
                table.column("new_price", .text).notNull()
                table.column("at", .double).notNull()
            }
        }
        return migrator
    }

    /// The listings by id, only those tagged `tag` when one is given: those whose id is
    /// over `after` when it is given, at most `limit` of them when it is given.
    public func listings(tagged tag: Listing.Tag? = nil, after: Int? = nil, limit: Int? = nil) async throws -> [Listing] {
        try await database.read { db in
            var listings: [Listing] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM listing WHERE id > ? ORDER BY id", arguments: [after ?? Int.min])
            while let row = try rows.next() {
                if let limit, listings.count >= limit { break }
                // A copy: a cursor's live row reads a text where a number should be as 0
                // (SQLite's own conversion); a copied row refuses it, as fetchAll's rows do.
                let listing = try Self.listing(from: row.copy())
                if let tag, !listing.tags.contains(tag) { continue }
                listings.append(listing)
            }
            return listings
        }
    }

    /// Adds `listing`; false when its id is taken.
    public func add(_ listing: Listing) async throws -> Bool {
        try await database.write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM listing WHERE id = ?", arguments: [listing.id]) == 0 else {
                return false
            }
            try Self.insert(listing, into: db)
            return true
        }
    }

    /// Sets the price of listing `id` (and its last update to `at`, never before its
    /// creation) and records the change; false when there is no such listing.
    public func changePrice(id: Int, to price: String, at: Date) async throws -> Bool {
        try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT price, created FROM listing WHERE id = ?", arguments: [id]) else { return false }
            let old = try row.decode(String.self, forColumn: "price")
            let time = max(at.timeIntervalSince1970, try row.decode(Double.self, forColumn: "created"))
            try db.execute(sql: "UPDATE listing SET price = ?, last_updated = ? WHERE id = ?", arguments: [price, time, id])
            try db.execute(
                sql: "INSERT INTO price_change (id, old_price, new_price, at) VALUES (?, ?, ?, ?)", arguments: [id, old, price, time])
            return true
        }
    }

    /// Every price change, in the order they were made.
    public func priceChanges() async throws -> [PriceChanged] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM price_change ORDER BY sequence").map { row in
                PriceChanged(
                    id: try row.decode(Int.self, forColumn: "id"), oldPrice: try row.decode(String.self, forColumn: "old_price"),
                    newPrice: try row.decode(String.self, forColumn: "new_price"),
                    at: Date(timeIntervalSince1970: try row.decode(Double.self, forColumn: "at")))
            }
        }
    }

    private static func insert(_ listing: Listing, into db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO listing (id, name, description, price, sold, url, tags, created, last_updated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                listing.id, listing.name, listing.description, listing.price, listing.sold, listing.url,
                listing.tags.map(\.rawValue).joined(separator: ","), listing.created.timeIntervalSince1970,
                listing.lastUpdated.timeIntervalSince1970,
            ])
    }

    /// A row that does not make a valid listing (edited by hand, say) is an error, not a crash:
    /// GRDB's throwing `decode` (its subscripts stop the process on a value of the wrong type).
    private static func listing(from row: Row) throws -> Listing {
        let id = try row.decode(Int.self, forColumn: "id")
        let name = try row.decode(String.self, forColumn: "name")
        let description = try row.decode(String.self, forColumn: "description")
        let price = try row.decode(String.self, forColumn: "price")
        let sold = try row.decode(Bool.self, forColumn: "sold")
        let url = try row.decode(String.self, forColumn: "url")
        let tagList = try row.decode(String.self, forColumn: "tags")
        let created = try row.decode(Double.self, forColumn: "created")
        let updated = try row.decode(Double.self, forColumn: "last_updated")
        var tags: [Listing.Tag] = []
        for raw in tagList.split(separator: ",") {
            guard let tag = Listing.Tag(rawValue: String(raw)) else { throw StoreError.malformedRow }
            tags.append(tag)
        }
        return Listing(
            id: id, name: name, description: description, price: price, sold: sold, url: url, tags: tags,
            created: Date(timeIntervalSince1970: created), lastUpdated: Date(timeIntervalSince1970: updated))
    }

    public enum StoreError: Error, Sendable, CustomStringConvertible {
        case malformedRow
        public var description: String { "a listing row in the database is malformed" }
    }
}

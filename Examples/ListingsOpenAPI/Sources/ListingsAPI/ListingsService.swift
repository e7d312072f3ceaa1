import Foundation
import OpenAPIRuntime
import Synchronization

/// The handlers the generator's `APIProtocol` asks for: listings kept in memory. They
/// check nothing themselves — every constraint of `openapi.yaml` is enforced before they
/// run by `VettedOpenAPIMiddleware` (see `Application+Listings.swift`).
final class ListingsService: APIProtocol {
    private let store = Mutex<[Components.Schemas.Listing]>([])

    init() {}

    /// What the handlers stored, for tests that show what reaches them.
    var stored: [Components.Schemas.Listing] { store.withLock { $0 } }

    func listListings(_ input: Operations.listListings.Input) async throws -> Operations.listListings.Output {
        let limit = input.query.limit ?? 20
        let tags = Set(input.query.tag ?? [])
        let listings = store.withLock { $0 }.reversed().filter { tags.isEmpty || !tags.isDisjoint(with: $0.tags) }
        return .ok(.init(body: .json(Array(listings.prefix(limit)))))
    }

    func createListing(_ input: Operations.createListing.Input) async throws -> Operations.createListing.Output {
        guard case .json(let new) = input.body else { return .undocumented(statusCode: 415, .init()) }
        let now = Date()
        let listing = store.withLock { listings in
            let listing = Components.Schemas.Listing(
                id: listings.count + 1, name: new.name, description: new.description, price: new.price, sold: new.sold ?? false, url: new.url,
                tags: new.tags, created: now, last_updated: now)
            listings.append(listing)
            return listing
        }
        return .created(.init(body: .json(listing)))
    }

    func getListing(_ input: Operations.getListing.Input) async throws -> Operations.getListing.Output {
        let id = input.path.id
        guard let listing = store.withLock({ listings in listings.first { $0.id == id } }) else { return .notFound(.init()) }
        return .ok(.init(body: .json(listing)))
    }
}

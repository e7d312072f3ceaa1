// libFuzzer entry point: decode [Listing] (the talk's model and rules) with
// validation. Any input must give listings, a DecodingError or
// ValidationErrors — never a crash — and violations never exceed the cap.
// Build and run with scripts/fuzz.sh decode SECONDS.

import Foundation
import VettedCore
import VettedJSON
import VettedRules

struct Listing: Decodable, Validatable {
    enum Tag: String, Decodable { case music, electric, acoustic, vintage, books, tools, garden, kids }
    var id: Int
    var name: String
    var description: String
    var price: String
    var sold: Bool
    var url: String
    var tags: [Tag]
    var created: Date
    var lastUpdated: Date

    enum CodingKeys: String, CodingKey {
        case id, name, description, price, sold, url, tags, created
        case lastUpdated = "last_updated"
    }

    static let pricePattern = try? LinearPattern("[0-9]+(\\.[0-9]{1,2})?")

    static let validation = Validation<Listing> {
        Field(CodingKeys.id, Rule<Int>.range(1...Int(Int32.max)))
        Field(CodingKeys.name, Rule<String>.length(1...200))
        Field(CodingKeys.description, Rule<String>.length(1...5_000))
        if let pricePattern { Field(CodingKeys.price, Rule<String>.pattern(pricePattern, maximumLength: 32)) }
        Field(CodingKeys.url, Rule<String>.url(URLPolicy(schemes: ["https"], hosts: [.exact("example.com")], maximumLength: 50)))
        Field(CodingKeys.tags, Rule<[Tag]>.count(1...10))
        Relation("last_updated", after: "created", as: Date.self)
    }
}

private let decoder: VettedJSONDecoder = {
    let decoder = VettedJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    decoder.validationMode = .collect(upTo: 10)
    return decoder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    do {
        _ = try decoder.decode([Listing].self, from: bytes)
    } catch let error as ValidationErrors {
        guard error.errors.count <= 10 else { fatalError("more violations than the cap") }
        _ = error.description
    } catch {
        _ = "\(error)"
    }
    return 0
}

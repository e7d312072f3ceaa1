public import Foundation

extension VettedJSONDecoder {
    /// This decoder as a Foundation `JSONDecoder`, for frameworks that take one
    /// (Hummingbird's request decoding, AsyncHTTPClient's helpers): its
    /// `decode(_:from:)` is this decoder's, rules and limits included.
    ///
    /// ```swift
    /// let router = Router(context: BasicRequestContext.self)  // decodes with context.requestDecoder
    /// struct Context: RequestContext { var requestDecoder: JSONDecoder { listingsDecoder.asJSONDecoder } … }
    /// ```
    ///
    /// The options are this decoder's: the returned object's own strategy
    /// properties (inherited from `JSONDecoder`) are not read.
    public var asJSONDecoder: JSONDecoder { VettingJSONDecoder(self) }
}

/// A `JSONDecoder` that decodes with a ``VettedJSONDecoder``.
///
/// `@unchecked Sendable`, as Foundation's `JSONDecoder` is: its one stored
/// property is a constant reference to a decoder whose options sit behind a lock.
public final class VettingJSONDecoder: JSONDecoder, @unchecked Sendable {
    /// The decoder every call goes to.
    public let vetted: VettedJSONDecoder

    public init(_ vetted: VettedJSONDecoder) {
        self.vetted = vetted
        super.init()
    }

    public override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try vetted.decode(type, from: data)
    }
}

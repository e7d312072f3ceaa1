public import Foundation
public import VettedCore

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
    /// The two faces share one set of options: a strategy or `userInfo` set
    /// through the `JSONDecoder` face is set on this decoder (and read back from
    /// it). A setting Vetted does not have — `allowsJSON5`, or
    /// `assumesTopLevelDictionary` — is refused loudly: every later decode
    /// through that face throws `unsupportedOption`, never parses some other way.
    public var asJSONDecoder: JSONDecoder { VettingJSONDecoder(self) }
}

extension VettedError.Code {
    /// A decoder option that Vetted does not implement was set (`allowsJSON5` through ``VettedJSONDecoder/asJSONDecoder``).
    public static let unsupportedOption = VettedError.Code("unsupportedOption")
}

/// A `JSONDecoder` that decodes with a ``VettedJSONDecoder``, sharing its options.
///
/// `@unchecked Sendable`, as Foundation's `JSONDecoder` is: its stored
/// properties are a constant reference to a decoder whose options sit behind a
/// lock, and the refused settings, behind a lock of their own.
public final class VettingJSONDecoder: JSONDecoder, @unchecked Sendable {
    /// The decoder every call goes to.
    public let vetted: VettedJSONDecoder
    /// Settings of `JSONDecoder` that Vetted does not have, set to something other than their default.
    private let refused = Locked<[String]>([])

    public init(_ vetted: VettedJSONDecoder) {
        self.vetted = vetted
        super.init()
    }

    /// Decodes with the wrapped ``VettedJSONDecoder``.
    ///
    /// - Throws: `VettedError` (`unsupportedOption`) when a strategy Vetted does not support was set on this face; otherwise what ``VettedJSONDecoder/decode(_:from:)-(_,Data)`` throws.
    public override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let setting = refused.current.first {
            throw VettedError(
                code: .unsupportedOption,
                message: "\(setting) was set on a Vetted decoder's JSONDecoder face; Vetted reads strict JSON (RFC 8259) only, so the setting is refused")
        }
        return try vetted.decode(type, from: data)
    }

    private func refuse(_ setting: String, _ isDefault: Bool) {
        refused.update { list in
            list.removeAll { $0 == setting }
            if !isDefault { list.append(setting) }
        }
    }

    public override var allowsJSON5: Bool {
        get { refused.current.contains("allowsJSON5") }
        set { refuse("allowsJSON5", !newValue) }
    }

    public override var assumesTopLevelDictionary: Bool {
        get { refused.current.contains("assumesTopLevelDictionary") }
        set { refuse("assumesTopLevelDictionary", !newValue) }
    }

    public override var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
        get {
            switch vetted.dateDecodingStrategy {
            case .deferredToDate: .deferredToDate
            case .iso8601: .iso8601
            case .secondsSince1970: .secondsSince1970
            case .millisecondsSince1970: .millisecondsSince1970
            case .formatted(let formatter): .formatted(formatter)
            case .custom(let body): .custom(body)
            }
        }
        set {
            // `formatted` arrives as `custom` (swift-foundation builds it from one in another module).
            switch newValue {
            case .deferredToDate: vetted.dateDecodingStrategy = .deferredToDate
            case .iso8601: vetted.dateDecodingStrategy = .iso8601
            case .secondsSince1970: vetted.dateDecodingStrategy = .secondsSince1970
            case .millisecondsSince1970: vetted.dateDecodingStrategy = .millisecondsSince1970
            case .custom(let body): vetted.dateDecodingStrategy = .custom(body)
            #if canImport(Darwin)
            // Apple's Foundation has `formatted` as a case of its own, and may add more.
            case .formatted(let formatter): vetted.dateDecodingStrategy = .formatted(formatter)
            @unknown default: refuse("dateDecodingStrategy", false)
            #endif
            }
        }
    }

    public override var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy {
        get {
            switch vetted.dataDecodingStrategy {
            case .deferredToData: .deferredToData
            case .base64: .base64
            case .custom(let body): .custom(body)
            }
        }
        set {
            switch newValue {
            case .deferredToData: vetted.dataDecodingStrategy = .deferredToData
            case .base64: vetted.dataDecodingStrategy = .base64
            case .custom(let body): vetted.dataDecodingStrategy = .custom(body)
            @unknown default: refuse("dataDecodingStrategy", false)
            }
        }
    }

    public override var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
        get {
            switch vetted.keyDecodingStrategy {
            case .useDefaultKeys: .useDefaultKeys
            case .convertFromSnakeCase: .convertFromSnakeCase
            case .custom(let body): .custom(body)
            }
        }
        set {
            switch newValue {
            case .useDefaultKeys: vetted.keyDecodingStrategy = .useDefaultKeys
            case .convertFromSnakeCase: vetted.keyDecodingStrategy = .convertFromSnakeCase
            case .custom(let body): vetted.keyDecodingStrategy = .custom(body)
            @unknown default: refuse("keyDecodingStrategy", false)
            }
        }
    }

    public override var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy {
        get {
            switch vetted.nonConformingFloatDecodingStrategy {
            case .throw: .throw
            case .convertFromString(let positive, let negative, let nan):
                .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
            }
        }
        set {
            switch newValue {
            case .throw: vetted.nonConformingFloatDecodingStrategy = .throw
            case .convertFromString(let positive, let negative, let nan):
                vetted.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
            @unknown default: refuse("nonConformingFloatDecodingStrategy", false)
            }
        }
    }

    public override var userInfo: [CodingUserInfoKey: any Sendable] {
        get { vetted.userInfo }
        set { vetted.userInfo = newValue }
    }
}

import Foundation
public import JunkModel
public import Vetted

/// What the client does with a response whose listings break the rules.
public enum ResponsePolicy: String, Sendable, CaseIterable {
    /// Any problem rejects the whole response (the default).
    case strict
    /// The talk's lenient client: a listing whose only problems are in its
    /// `tags` is skipped, and the caller is told which and why; any other
    /// problem still rejects the whole response.
    case skipInvalidTags = "skip-invalid-tags"
}

/// Listings that passed every stage, and those skipped under ``ResponsePolicy/skipInvalidTags``.
public struct CheckedListings: Sendable {
    public var listings: [Listing]
    public var skipped: [Skipped]
    /// What the gate saw: size, digest, signer (nil when checked offline without a signature).
    public var report: GateReport?

    public struct Skipped: Sendable, Hashable {
        /// The index in the response's array.
        public var index: Int
        public var problems: [Problem]
    }
}

/// A response (or file) that did not pass: every problem, with its stage and path.
public struct ListingsRejected: Error, Sendable, CustomStringConvertible {
    public var problems: [Problem]
    public init(_ problems: [Problem]) { self.problems = problems }
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// The primitive and structured stages for listings: parse, decode, the talk's rules.
public struct ListingsChecker: Sendable {
    /// Most problems reported for one response.
    public static let maximumProblems = 100

    public init() {}

    private static let decoder = ListingsAPI.makeDecoder(maximumProblems: maximumProblems)

    /// Decodes and validates bytes that already passed the raw stage.
    public func check(_ bytes: [UInt8], policy: ResponsePolicy, report: GateReport? = nil) throws(ListingsRejected) -> CheckedListings {
        switch policy {
        case .strict:
            do {
                return CheckedListings(listings: try Self.decoder.decode([Listing].self, from: bytes), skipped: [], report: report)
            } catch {
                throw ListingsRejected(Problem.all(in: error, direct: .syntax))
            }
        case .skipInvalidTags:
            return try lenient(bytes, report: report)
        }
    }

    private func lenient(_ bytes: [UInt8], report: GateReport?) throws(ListingsRejected) -> CheckedListings {
        let document: JSONValue
        do {
            document = try JSONParser(limits: ListingsAPI.parserLimits).parse(bytes)
        } catch {
            throw ListingsRejected(Problem.all(in: error, direct: .syntax))
        }
        guard case .array(let elements) = document else {
            throw ListingsRejected([Problem(path: "$", code: "typeMismatch", message: "expected an array of listings")])
        }
        var listings: [Listing] = []
        var skipped: [CheckedListings.Skipped] = []
        var fatal: [Problem] = []
        for (index, element) in elements.enumerated() {
            do {
                listings.append(try Self.decoder.decode(Listing.self, from: element))
            } catch {
                let problems = Problem.all(in: error, prefix: [.index(index)])
                let tags = "$[\(index)].tags"
                if problems.allSatisfy({ $0.path == tags || $0.path.hasPrefix(tags + "[") }) {
                    skipped.append(.init(index: index, problems: problems))
                } else {
                    fatal += problems
                    if fatal.count >= Self.maximumProblems { break }
                }
            }
        }
        guard fatal.isEmpty else { throw ListingsRejected(Array(fatal.prefix(Self.maximumProblems))) }
        return CheckedListings(listings: listings, skipped: skipped, report: report)
    }
}

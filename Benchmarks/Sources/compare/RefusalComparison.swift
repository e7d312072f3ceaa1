import ArgumentParser
import Foundation
import Vetted

/// What a refused request body costs Vetted, in parts: the decode that fails, then the RFC 9457
/// problem made from its error and written as bytes (what the adapters answer with).
struct RefusalCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refusal",
        abstract: "Time per refused body: decoding adapter-load.sh's invalid Listing (two rule violations), then its 422 problem.",
        discussion: """
            Prints name<TAB>microseconds per body (the median run over --count bodies each): vetted.refusal-decode \
            (the decode that throws), vetted.refusal-problem (decode, ProblemDetails and its JSON bytes), \
            vetted.accept-decode (the valid body, for scale). For callgrind, --only names one of them.
            """)

    @OptionGroup var timing: TimingOptions

    @Option(help: "Bodies per timed run.")
    var count = 20_000

    @Option(help: "Only this one: refusal-decode, refusal-problem or accept-decode.")
    var only: String?

    static let valid = Data(
        #"{"id":1,"name":"Lamp","description":"A desk lamp","price":"10.50","sold":false,"url":"https://example.com/1","tags":["electric"],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
            .utf8)
    static let invalid = Data(
        #"{"id":1,"name":"Lamp","description":"A desk lamp","price":"ten","sold":false,"url":"https://example.com/1","tags":[],"created":"2018-05-01T10:39:04Z","last_updated":"2018-05-02T10:39:04Z"}"#
            .utf8)

    func run() throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard (try? decoder.decode(Listing.self, from: Self.invalid)) == nil, (try? decoder.decode(Listing.self, from: Self.valid)) != nil,
            let problem = (Result { try decoder.decode(Listing.self, from: Self.invalid) }.failureProblem), problem.status == 422
        else { throw ValidationError("the bodies do not decode as adapter-load.sh expects") }
        let count = self.count
        let sides: [(String, () -> Any?)] = [
            ("refusal-decode", { (0..<count).reduce(0) { sum, _ in sum + ((try? decoder.decode(Listing.self, from: Self.invalid)) == nil ? 1 : 0) } }),
            ("refusal-problem", {
                (0..<count).reduce(0) { sum, _ in
                    do {
                        _ = try decoder.decode(Listing.self, from: Self.invalid)
                        return sum
                    } catch {
                        return sum + (ProblemDetails(error)?.json.count ?? 0)
                    }
                }
            }),
            ("accept-decode", { (0..<count).reduce(0) { sum, _ in sum + ((try? decoder.decode(Listing.self, from: Self.valid))?.id ?? 0) } }),
        ].filter { only == nil || $0.0 == only }
        let medians = try timing.medians(sides.map(\.1))
        for (index, side) in sides.enumerated() {
            print("vetted.\(side.0)\t\(String(format: "%.2f", medians[index] / Double(count) * 1e6))")
        }
    }
}

extension Result where Failure == any Error {
    /// The problem an adapter answers for this failure.
    fileprivate var failureProblem: ProblemDetails? {
        guard case .failure(let error) = self else { return nil }
        return ProblemDetails(error)
    }
}

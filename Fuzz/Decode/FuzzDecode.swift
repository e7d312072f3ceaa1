// libFuzzer entry point: decode [Listing] (the talk's model and rules) with
// validation. Any input must give listings, a DecodingError or
// ValidationErrors — never a crash — and violations never exceed the cap.
// Build and run with scripts/fuzz.sh decode SECONDS (which compiles the shared
// Tests/VettedTestSupport/TalkListing.swift into this target).

import Foundation
import VettedCore
import VettedJSON
import VettedRules

private let decoder: VettedJSONDecoder = {
    let decoder = VettedJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    decoder.validationMode = .collect(upTo: 10)
    return decoder
}()

/// Other paths of the tape decoder: repeated keys kept, converted keys,
/// dictionaries (allKeys), optionals, `JSONValue` fields.
private let lenient: VettedJSONDecoder = {
    let decoder = VettedJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.duplicateKeyPolicy = .keepLast
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    return decoder
}()

/// A document decoded from its text and from its parsed value: the same outcome (of a
/// repeated key the first counts in both; a value's errors have no offsets to compare).
private let keepFirst: VettedJSONDecoder = {
    let decoder = VettedJSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.duplicateKeyPolicy = .keepFirst
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    decoder.validationMode = .collect(upTo: 10)
    return decoder
}()
private let keepFirstParser = JSONParser(limits: Limits(maxInputBytes: 1 << 20, maxDepth: 64), options: .init(duplicateKeys: .keepFirst))

/// What a decode gave, without offsets: "ok", or each error's code and path.
private func unlocated(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch let error as ValidationErrors {
        return error.errors.map { "\($0.code) \($0.path)" }.joined(separator: "; ")
    } catch let error as DecodingError {
        requireNoInternalError(error)
        return error.vettedError.map { "\($0.code) \($0.path)" } ?? "\(error)"
    } catch {
        return "\(error)"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    do {
        _ = try decoder.decode([Listing].self, from: bytes)
    } catch let error as ValidationErrors {
        guard error.errors.count <= 10 else { fatalError("more violations than the cap") }
        _ = error.description
    } catch {
        requireNoInternalError(error)
    }
    do { _ = try lenient.decode(JSONValue.self, from: bytes) } catch { requireNoInternalError(error) }
    do { _ = try lenient.decode([String: [Int?]].self, from: bytes) } catch { requireNoInternalError(error) }
    do { _ = try lenient.decode([[String: Double]].self, from: bytes) } catch { requireNoInternalError(error) }
    if let value = try? keepFirstParser.parse(bytes) {
        let fromText = unlocated { _ = try keepFirst.decode([Listing].self, from: bytes) }
        let fromValue = unlocated { _ = try keepFirst.decode([Listing].self, from: value) }
        guard fromText == fromValue else { fatalError("decoded from text: \(fromText); from its value: \(fromValue)") }
    }
    return 0
}

/// A broken internal invariant is a finding (a bug in Vetted), never an ordinary error.
func requireNoInternalError(_ error: any Error) {
    if "\(error)".contains(VettedError.Code.internalInvariantViolated.rawValue) { fatalError("internal invariant violated: \(error)") }
}


// libFuzzer entry point: generated decoding (`@Vetted`) against init(from:).
// Each input is decoded as [GenItem], GenItem, [DirectItem] and DirectItem (a
// type read straight from the bytes) three ways under one of the
// differential's decoder configurations (chosen by the input's length); any
// difference in value or error aborts. The shapes (a tagged union of each
// kind, a struct with defaults and aliases) are decoded straight from the
// bytes, from the tape and, when the input is JSON without a repeated key,
// from it as a binary property list: the same value or the same errors (code
// and path); and under each configuration, with a key strategy that keeps every key
// (so their generated `init(from:)` runs), the same value or the same error. The overloads the compiler picks for a type known to be `@Vetted`
// give what the generic call gives. DirectItem and GenItem also answer as their hand-written
// twins (TwinCorpus.swift: `init(from:)` and `Validatable`, on the tape). Build and run with scripts/fuzz.sh generated SECONDS (which
// compiles the shared Tests/VettedMacrosTests/GeneratedCorpus.swift, ShapesCorpus.swift and
// TwinCorpus.swift into this target and loads the macro plugin).

import Foundation
import VettedCore
@_spi(Testing) import VettedJSON
import VettedMacros

private let configurations: [DecoderOptions] = [
    DecoderOptions(),
    DecoderOptions(date: .iso8601, dateName: "iso8601"),
    DecoderOptions(date: .secondsSince1970, dateName: "seconds", data: .deferredToData),
    DecoderOptions(floats: .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")),
    DecoderOptions(duplicates: .keepFirst, mode: .failFast),
    DecoderOptions(duplicates: .keepLast, mode: .collect(upTo: 2)),
].map { options in
    var options = options
    options.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    return options
}

/// Generated decoding (straight from the bytes, where it takes the input, with default keys and
/// under a `custom` key strategy that keeps every key), generated decoding from the tape, and
/// init(from:) on the tape: the same value or the same error.
private func compare<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], _ options: DecoderOptions) {
    let generated = Outcome { try options.decoder(generated: true).decode(T.self, from: bytes) }
    let converted = Outcome { try options.convertingDecoder().decode(T.self, from: bytes) }
    let tape = Outcome { try options.decoder(generated: true, direct: false).decode(T.self, from: bytes) }
    let codable = Outcome { try options.decoder(generated: false).decode(T.self, from: bytes) }
    requireNoInternalError("\(generated) \(codable)")
    if generated != codable || converted != codable || tape != codable {
        fatalError(
            "generated decoding differs from init(from:) under \(options):\n  generated: \(generated)\n  custom keys: \(converted)\n  tape: \(tape)\n  init(from:): \(codable)")
    }
}

/// `decode(_:from:)` where `T` is only `Decodable`: the open method, its path found by the plan.
private func generic<T: Decodable>(_ decoder: VettedJSONDecoder, _ type: T.Type, _ bytes: [UInt8]) throws -> T {
    try decoder.decode(T.self, from: bytes)
}

/// The overloads the compiler picks where the type is known to be `@Vetted` (a struct,
/// a union, an array of either): exactly what the generic call gives.
private func compareOverloads(_ bytes: [UInt8], _ options: DecoderOptions) {
    let decoder = options.decoder(generated: true)
    let pairs = [
        (Outcome { try decoder.decode(GenItem.self, from: bytes) }, Outcome { try generic(decoder, GenItem.self, bytes) }),
        (Outcome { try decoder.decode([GenItem].self, from: bytes) }, Outcome { try generic(decoder, [GenItem].self, bytes) }),
        (Outcome { try decoder.decode(DirectItem.self, from: bytes) }, Outcome { try generic(decoder, DirectItem.self, bytes) }),
        (Outcome { try decoder.decode([DirectItem].self, from: bytes) }, Outcome { try generic(decoder, [DirectItem].self, bytes) }),
        (Outcome { try decoder.decode(TestEvent.self, from: bytes) }, Outcome { try generic(decoder, TestEvent.self, bytes) }),
        (Outcome { try decoder.decode([TestEvent].self, from: bytes) }, Outcome { try generic(decoder, [TestEvent].self, bytes) }),
    ]
    for (known, planned) in pairs where known != planned {
        fatalError("the compile-time overload differs from the generic call under \(options):\n  overload: \(known)\n  generic: \(planned)")
    }
}

/// A shape through each path: the same outcome.
private func compareShapes<T: Decodable & Equatable>(_ type: T.Type, _ text: String, plist: Bool) {
    let paths: [ShapePath] = plist && ShapePath.comparable(for: text).count > 2 ? [.bytes, .tape, .binaryPlist] : [.bytes, .tape]
    let outcomes = paths.map { $0.outcome(T.self, text) }
    requireNoInternalError("\(outcomes)")
    if outcomes.contains(where: { $0 != outcomes[0] }) {
        fatalError("\(T.self) differs between paths:\n" + zip(paths, outcomes).map { "  \($0): \($1)" }.joined(separator: "\n"))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGenerated(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let options = configurations[count % configurations.count]
    compare([GenItem].self, bytes, options)
    compare(GenItem.self, bytes, options)
    compare([DirectItem].self, bytes, options)
    compare(DirectItem.self, bytes, options)
    compareOverloads(bytes, options)
    // The hand-written twins: value for value, error for error (code, path, offset, in order).
    for difference in [
        twinDifference([DirectItem].self, [DirectItemTwin].self, bytes, options), twinDifference(DirectItem.self, DirectItemTwin.self, bytes, options),
        twinDifference([GenItem].self, [GenItemTwin].self, bytes, options),
    ] {
        if let difference {
            requireNoInternalError(difference)
            fatalError("the one reader differs from a hand-written twin:\n\(difference)")
        }
    }
    // Defaults, aliases and unions: the generated init(from:) (a key strategy's path) answers as generated decoding does.
    compare([Page].self, bytes, options)
    compare([TestEvent].self, bytes, options)
    compare(WrappedEvent.self, bytes, options)
    // The shapes: a property list can say the same only of JSON without a repeated key.
    let text = String(decoding: bytes, as: UTF8.self)
    let plist = (try? JSONParser(limits: Limits(maxInputBytes: 1 << 20, maxDepth: 64)).parse(bytes)) != nil && text.utf8.elementsEqual(bytes)
    compareShapes([TestEvent].self, text, plist: plist)
    compareShapes(WrappedEvent.self, text, plist: plist)
    compareShapes([Page].self, text, plist: plist)
    return 0
}

/// A broken internal invariant is a finding (a bug in Vetted), never an ordinary error.
func requireNoInternalError(_ error: String) {
    if "\(error)".contains(VettedError.Code.internalInvariantViolated.rawValue) { fatalError("internal invariant violated: \(error)") }
}

// libFuzzer entry point: decode [Listing] (the talk's model and rules) from a
// binary or XML property list with validation. Any input must give listings,
// a DecodingError, ValidationErrors or a rule-declaration VettedError never
// raised by the talk's correct rules — never a crash — and violations never
// exceed the cap; generated decoding and init(from:) agree exactly. Build and run with scripts/fuzz.sh plistdecode SECONDS
// (which compiles the shared Tests/VettedTestSupport/TalkListing.swift in).

import Foundation
import VettedCore
@_spi(Testing) import VettedPlist
import VettedRules

private let decoder: VettedPropertyListDecoder = {
    let decoder = VettedPropertyListDecoder()
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    decoder.validationMode = .collect(upTo: 10)
    return decoder
}()

/// Other paths: repeated keys kept, dictionaries (allKeys), optionals, nested arrays.
private let lenient: VettedPropertyListDecoder = {
    let decoder = VettedPropertyListDecoder()
    decoder.duplicateKeyPolicy = .keepLast
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    return decoder
}()

/// The same options, decoding `@Vetted` types by `init(from:)` instead of their generated code.
private let codable: VettedPropertyListDecoder = {
    let decoder = VettedPropertyListDecoder()
    decoder.limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64)
    decoder.validationMode = .collect(upTo: 10)
    decoder.generatedDecoding = false
    return decoder
}()

/// `[Listing]` one level down: read as a whole tree, not one element at a time.
private struct Whole: Decodable {
    let listings: [Listing]
    init(from decoder: any Decoder) throws {
        listings = try decoder.singleValueContainer().decode([Listing].self)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlistDecode(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    // A top-level array is streamed element by element; the same array one level
    // down is read whole first. Both accept exactly the same inputs, with equal values.
    let streamed = Result { try decoder.decode([Listing].self, from: bytes) }
    let whole = Result { try decoder.decode(Whole.self, from: bytes).listings }
    switch (streamed, whole) {
    case (.success(let one), .success(let other)):
        guard one == other else { fatalError("streamed and whole reads decode different listings") }
    case (.failure, .failure):
        break
    case (.success, .failure(let error)):
        fatalError("only the streamed read accepts the input; the whole read says \(error)")
    case (.failure(let error), .success):
        fatalError("only the whole read accepts the input; the streamed read says \(error)")
    }
    // Generated decoding (Listing, its tags) gives exactly what init(from:) gives: values and errors.
    let byInitFromDecoder = Result { try codable.decode([Listing].self, from: bytes) }
    switch (streamed, byInitFromDecoder) {
    case (.success(let one), .success(let other)):
        guard one == other else { fatalError("generated decoding and init(from:) decode different listings") }
    case (.failure(let one), .failure(let other)):
        guard "\(one)" == "\(other)" else { fatalError("generated decoding says \(one)\ninit(from:) says \(other)") }
    default:
        fatalError("generated decoding gives \(streamed); init(from:) gives \(byInitFromDecoder)")
    }
    do {
        _ = try streamed.get()
    } catch let error as ValidationErrors {
        guard error.errors.count <= 10 else { fatalError("more violations than the cap") }
        _ = error.description
    } catch let error as VettedError where error.code.isRuleDeclaration {
        fatalError("the talk's rules are declared right, yet: \(error)")
    } catch {
        _ = "\(error)"
    }
    _ = try? lenient.decode([String: [Int?]].self, from: bytes)
    _ = try? lenient.decode([[String: Double]].self, from: bytes)
    _ = try? lenient.decode([Listing?].self, from: bytes)
    return 0
}

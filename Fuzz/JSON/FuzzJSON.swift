// libFuzzer entry point for the JSON parser, both modes.
//
// For every input, under strict and lenient options:
// - parse and validate-only must agree (both succeed, or both fail with the same error);
// - an error's offset lies inside the input;
// - a parsed value written compact and pretty reads back equal.
// Any disagreement aborts, so libFuzzer keeps the input.
//
// Build and run with scripts/fuzz.sh json SECONDS.

import VettedCore
import VettedJSON

private let limits = Limits(
    maxInputBytes: 1 << 20, maxDepth: 256, maxStringBytes: 1 << 16, maxMembers: 10_000,
    maxValues: 100_000, maxNumberLength: 64)

private let parsers = [
    JSONParser(limits: limits),
    JSONParser(
        limits: limits,
        options: .init(duplicateKeys: .keepLast, allowByteOrderMark: true, allowInvalidUTF8: true, allowLoneSurrogates: true)),
    JSONParser(limits: limits, options: .init(duplicateKeys: .keepFirst)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    for parser in parsers {
        let parsed = Result { () throws(VettedError) in try parser.parse(bytes) }
        if case .failure(let error) = parsed, error.code == .internalInvariantViolated { fatalError("internal invariant violated: \(error)") }
        let validated = Result { () throws(VettedError) in try parser.validate(bytes) }
        switch (parsed, validated) {
        case (.success(let value), .success):
            for style in [JSONWriter.Style.compact, .pretty] {
                guard let again = try? JSONParser(limits: .unlimited).parse(value.jsonBytes(style)), again == value else {
                    fatalError("written value does not read back equal")
                }
            }
        case (.failure(let parseError), .failure(let validateError)):
            guard parseError == validateError else { fatalError("parse and validate report different errors") }
            guard let offset = parseError.offset, (0...bytes.count).contains(offset) else {
                fatalError("error offset outside the input")
            }
            _ = parseError.description  // computes line, column and excerpt
        default:
            fatalError("parse and validate disagree on acceptance")
        }
    }
    return 0
}

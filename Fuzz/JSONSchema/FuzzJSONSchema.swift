// libFuzzer entry point for the JSON Schema validator: a random schema and a random instance.
//
// The input is split at its first NUL byte: the schema before it, the instance after it
// (no NUL: the input is both). For every input:
// - compiling either succeeds or throws a VettedError (never internalInvariantViolated);
// - validating from a value and from bytes agree (valid or not, and the same codes and paths);
// - validating from bytes (one pass, as the bytes are parsed) answers exactly what parsing
//   them whole and validating the value answers, in every mode: the same errors (code, path,
//   offset, message, parameters) in the same order, the same count past the cap, the same
//   parse error for bytes that do not parse (unless the stack budget ran out on either side:
//   where it runs out depends on the stack the call starts with);
// - failFast gives the first error of the collected ones;
// - a valid report has no errors; an invalid one has at least one, each with a schema location.
// Any disagreement aborts, so libFuzzer keeps the input. A hang or a blow-up is caught by
// scripts/fuzz.sh's time and memory limits.
//
// Build and run with scripts/fuzz.sh jsonschema SECONDS.

import Foundation
import VettedCore
import VettedJSON
@_spi(Testing) import VettedJSONSchema

private let limits = Limits(
    maxInputBytes: 1 << 20, maxDepth: 128, maxStringBytes: 1 << 14, maxMembers: 2_000,
    maxValues: 20_000, maxNumberLength: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONSchema(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let split = bytes.firstIndex(of: 0)
    let schemaBytes = split.map { Array(bytes[..<$0]) } ?? bytes
    let instanceBytes = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
    guard let schemaValue = try? JSONParser(limits: limits).parse(schemaBytes) else { return 0 }
    for assertFormats in [false, true] {
        let schema: JSONSchema
        do {
            schema = try JSONSchema(schemaValue, options: JSONSchema.Options(assertFormats: assertFormats, limits: limits))
        } catch {
            if error.code == .internalInvariantViolated { fatalError("internal invariant violated: \(error)") }
            continue
        }
        for mode in [ValidationMode.collect, .collect(upTo: 2), .failFast] {
            let streamed = schema.validate(Data(instanceBytes), mode: mode)
            let parsed = schema.validateParsed(Data(instanceBytes), mode: mode)
            // Where the stack budget runs out depends on the stack the call starts with (an ASan
            // build's frames are many times a release build's): the one answer allowed to differ.
            let stackBound = (streamed.errors + parsed.errors).contains { $0.parameters["limit"] == .string("maxStackBytes") }
            // Once either side ran out of stack, the whole answer may differ (valid on one side, the
            // stack's error on the other), not only whether the bytes were well formed.
            guard stackBound
                || (streamed.isWellFormed == parsed.isWellFormed && streamed.moreErrors == parsed.moreErrors
                    && streamed.errors.count == parsed.errors.count
                    && zip(streamed.errors, parsed.errors).allSatisfy({ pair in
                        pair.0 == pair.1 && pair.0.message == pair.1.message && pair.0.parameters == pair.1.parameters
                            && pair.0.location == pair.1.location
                    }))
            else { fatalError("validating while parsing and after parsing disagree:\n\(streamed)\n--\n\(parsed)") }
        }
        guard let instance = try? JSONParser(limits: limits).parse(instanceBytes) else { continue }
        let fromValue = schema.validate(instance)
        let fromBytes = schema.validate(Data(instanceBytes))
        guard fromValue.isValid == fromBytes.isValid,
            fromValue.errors.map(\.code) == fromBytes.errors.map(\.code),
            fromValue.errors.map(\.path) == fromBytes.errors.map(\.path)
        else { fatalError("validating a value and its bytes disagree") }
        for error in fromValue.errors {
            if error.code == .internalInvariantViolated { fatalError("internal invariant violated: \(error)") }
            guard error.parameters["schemaLocation"] != nil else { fatalError("an error without its schema location") }
        }
        for error in fromBytes.errors where error.offset != nil {
            guard let offset = error.offset, (0...instanceBytes.count).contains(offset) else { fatalError("error offset outside the input") }
        }
        let first = schema.validate(instance, mode: .failFast)
        guard first.isValid == fromValue.isValid, first.errors.first?.code == fromValue.errors.first?.code,
            first.errors.first?.path == fromValue.errors.first?.path
        else { fatalError("failFast and collect disagree") }
        _ = fromValue.basicOutput
    }
    return 0
}

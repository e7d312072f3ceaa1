// libFuzzer entry point for the property-list readers. Built twice by
// scripts/fuzz.sh: `bplist` (binary reader) and `xmlplist` (XML reader),
// selected with -D FUZZ_XML.
//
// For every input: reading gives a value or a VettedError whose offset lies
// in the input; a value written back (binary, and XML when representable)
// reads back, and writing that again gives the same bytes.

import VettedCore
import VettedPlist

// A value costs about 25 µs across this target's seven passes in the ASan build
// (read, write and read back in both formats): 30,000 values stay near 0.75 s,
// a quarter of the 3-second timeout even on a loaded machine. At 100,000, shared
// arrays of 200 bytes expanding to 66,000 values took 1.6 s alone and timed out
// under load (timeout-c7102ced, timeout-218d24f7: FuzzerDiscoveredTests).
private let limits = Limits(
    maxInputBytes: 1 << 20, maxDepth: 256, maxStringBytes: 1 << 16, maxMembers: 10_000,
    maxValues: 30_000, maxNumberLength: 64)

#if FUZZ_XML
private let format = PlistParser.Format.xml
#else
private let format = PlistParser.Format.binary
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let parser = PlistParser(limits: limits)
    let value: PlistValue
    do {
        value = try parser.parse(SourceText(bytes), as: format)
    } catch {
        guard let offset = error.offset, (0...bytes.count).contains(offset) else { fatalError("error offset outside the input") }
        _ = error.description
        return 0
    }
    let binary = PlistWriter.binary(value)
    guard let again = try? PlistParser(limits: .unlimited).parse(SourceText(binary), as: .binary),
        PlistWriter.binary(again) == binary
    else { fatalError("binary write does not round-trip") }
    if let xml = try? PlistWriter.xml(value) {
        guard let reread = try? PlistParser(limits: .unlimited).parse(SourceText(xml), as: .xml),
            (try? PlistWriter.xml(reread)) == xml
        else { fatalError("XML write does not round-trip") }
    }
    return 0
}

// libFuzzer entry point for the property-list readers. Built twice by
// scripts/fuzz.sh: `bplist` (binary reader) and `xmlplist` (XML reader),
// selected with -D FUZZ_XML.
//
// For every input: reading gives a value or a VettedError whose offset lies
// in the input; a value written back (binary, and XML when representable)
// reads back, and writing that again gives the same bytes.

import VettedCore
import VettedPlist

// What one input may cost is held well under the 3-second timeout, so that a
// timeout means super-linear work, not a legitimate expansion: this target makes
// seven passes (read, write and read back in both formats) in an ASan build.
// - 30,000 values (a value costs about 25 µs across the passes): shared arrays of
//   200 bytes expanding to 66,000 values took 1.6 s alone at 100,000 and timed
//   out under load (timeout-c7102ced, timeout-218d24f7);
// - 1 MiB of expansion (amplificationThreshold; the default 8 MiB lets a 4 KB
//   file name one 2,000-byte string 2,000 times, 4 MB, and that timed out too:
//   timeout-18c626d3). Each is a named test in FuzzerDiscoveredTests.
private let limits = Limits(
    maxInputBytes: 1 << 20, maxDepth: 256, maxStringBytes: 1 << 16, maxMembers: 10_000,
    maxValues: 30_000, maxNumberLength: 64, amplificationThreshold: 1 << 20)

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

// libFuzzer entry point: decode a Purchase graph (the talk's purchase history)
// and any value-class archive from arbitrary bytes. Any input must give a value
// or a typed error — never a crash, a hang, or an instance of a class that was
// not allowed. Build and run with scripts/fuzz.sh archive SECONDS (which compiles
// the shared Tests/VettedTestSupport/TalkPurchase.swift into this target).

import Foundation
import VettedArchive
import VettedCore

private let limits = Limits(maxInputBytes: 1 << 20, maxDepth: 64, maxMembers: 10_000, maxValues: 100_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    for decode in decoders {
        do {
            if let value = try decode(data) {
                // Whatever decodes must archive again and read back as the same type.
                if let purchase = value as? Purchase {
                    let again = try KeyedArchiver.archivedData(withRootObject: purchase)
                    guard try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: again) == purchase else {
                        fatalError("a decoded purchase did not round-trip")
                    }
                }
            }
        } catch is VettedError {
        } catch is Purchase.DateBeforeLaunch {
        } catch {
            fatalError("untyped error: \(error)")
        }
    }
    return 0
}

private let decoders: [@Sendable (Data) throws -> Any?] = [
    { try KeyedUnarchiver.unarchivedObject(ofClass: Purchase.self, from: $0, limits: limits) },
    { try KeyedUnarchiver.unarchivedArrayOfObjects(ofClass: Purchase.self, from: $0, limits: limits) },
    { try KeyedUnarchiver.unarchivedObject(ofClass: ArchivedValue.self, from: $0, limits: limits) },
    { try ArchiveGraph(parsing: Array($0), limits: limits).classNames() },
]

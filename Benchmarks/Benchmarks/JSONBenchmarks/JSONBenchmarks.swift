import Benchmark
import Foundation
import ListingsCorpus
import Vetted

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(3))

    let corpus = Data(ListingsCorpus.generate(bytes: 1_000_000, seed: 1))
    let parser = JSONParser()

    Benchmark("vetted.parse 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try parser.parse(corpus))
        }
    }

    Benchmark("vetted.validate-only 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            try parser.validate(corpus)
        }
    }

    Benchmark("foundation.JSONSerialization 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONSerialization.jsonObject(with: corpus))
        }
    }

    let document = try? parser.parse(corpus)
    let bplist = Data(PlistWriter.binary(.array((document?.arrayValue ?? []).map { listing in
        .dictionary(PlistDictionary((listing.objectValue ?? JSONObject()).map { .init(key: $0.key, value: .string($0.value.description)) }))
    })))

    Benchmark("vetted.bplist-read 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PlistParser().parse(bplist))
        }
    }

    Benchmark("foundation.PropertyListSerialization 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PropertyListSerialization.propertyList(from: bplist, options: [], format: nil))
        }
    }
    Benchmark("vetted.write compact 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(document?.jsonBytes())
        }
    }
}

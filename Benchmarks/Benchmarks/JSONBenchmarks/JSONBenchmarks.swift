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
    Benchmark("vetted.write compact 1 MB listings") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(document?.jsonBytes())
        }
    }
}

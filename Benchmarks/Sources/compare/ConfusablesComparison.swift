import ArgumentParser
import Foundation
import Vetted

/// What checking a host against Unicode's confusables data costs per URL.
struct ConfusablesCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confusables",
        abstract: "Per-URL cost of the URL rule: ASCII hosts (fast path) against non-ASCII hosts (skeletons, scripts).",
        discussion: """
            Lines: name, URLs per second, ns per URL, ratio (the ASCII line's time / this line's).
              url.ascii          https://example.com/listings/N (allowed; no Unicode data touched)
              url.lookalike      https://exаmple.com/… (Cyrillic а: mixed scripts → confusableHost)
              url.whole-script   https://аррӏе.com/… (all Cyrillic, skeleton "apple" → confusableHost)
              url.unicode-word   https://пример.com/… (Cyrillic, not a look-alike → hostNotAllowed)
              url.punycode       the look-alike as xn--… (decoded, then as above)
            """)

    @Option(help: "URLs per timed run.")
    var count = 10_000

    @OptionGroup var timing: TimingOptions

    func run() throws {
        let rule = Rule<String>.url(URLPolicy(hosts: [.exact("example.com"), .exact("apple.com")]))
        let shapes: [(String, String)] = [
            ("url.ascii", "https://example.com/listings/"),
            ("url.lookalike", "https://ex\u{0430}mple.com/listings/"),
            ("url.whole-script", "https://\u{0430}\u{0440}\u{0440}\u{04CF}\u{0435}.com/listings/"),
            ("url.unicode-word", "https://\u{043F}\u{0440}\u{0438}\u{043C}\u{0435}\u{0440}.com/listings/"),
            ("url.punycode", "https://xn--exmple-4nf.com/listings/"),
        ]
        let inputs = shapes.map { shape in (0..<count).map { "\(shape.1)\($0)" } }
        let bodies: [() throws -> Any?] = inputs.map { urls in
            {
                var failures = 0
                for url in urls where rule.check(url) != nil { failures += 1 }
                return failures
            }
        }
        let medians = try timing.medians(bodies)
        for (index, shape) in shapes.enumerated() {
            let seconds = medians[index]
            print(
                "\(shape.0)\t\(String(format: "%.0f", Double(count) / seconds))\t\(String(format: "%.0f", seconds / Double(count) * 1e9))\t"
                    + String(format: "%.2f", medians[0] / seconds))
        }
    }
}

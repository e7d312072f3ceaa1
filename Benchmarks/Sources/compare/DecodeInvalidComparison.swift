import ArgumentParser
import Foundation
import Vetted

/// What an invalid document costs against the same valid one: each defect class made
/// in the last listing of the corpus (and one with a violation in every listing).
struct DecodeInvalidThroughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-invalid",
        abstract: "Decode + validate [Listing] with one defect near the end, per defect class, against the same valid document.",
        discussion: """
            Prints name<TAB>MB/s<TAB>time/valid: the third column is this document's median time over \
            the valid one's (at most 1.2 is the target for one defect, 1.5 for a violation in every listing). \
            With --events, "tag-last" is the valid document with each event's tag moved last.
            Every defect is checked to fail, and the valid document to decode, before anything is timed. \
            With --only, callgrind counts one class: (--runs 3) minus (--runs 1) is two decodes of each document.
            """)

    @Argument(help: "A listings JSON file (make-listings), whose last listing has \"sold\", \"price\" and \"last_updated\"; with --events, an events file (make-listings --events).")
    var file: String

    @OptionGroup var timing: TimingOptions

    @Option(help: "Only this defect class beside the valid document (\"valid\": that alone), for instruction counts.")
    var only: String?

    @Flag(help: "Decode [ListingEvent] (a tagged union), with defects in the last event's payload and tag.")
    var events = false

    @Flag(help: "With --events: each event adjacently tagged, its payload under \"data\" ([WrappedListingEvent]).")
    var wrapped = false

    func run() throws {
        var text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
        if wrapped {
            guard events else { throw ValidationError("--wrapped reads an events file: add --events") }
            text = try WrappedEvents.wrap(text)
        }
        // Every listing opens with `{"id"` (make-listings writes `{"id":1,…}`, other corpora
        // `{"id": 1, …}`), every event with `{"type"`; a literal search, as a backwards regular
        // expression search on Linux finds the first.
        let opener = events ? #"{"type""# : #"{"id""#
        guard let last = text.range(of: opener, options: .backwards) else {
            throw ValidationError("\(file) has no \(events ? "event" : "listing")")
        }
        let head = String(text[..<last.lowerBound])
        let tail = String(text[last.lowerBound...])
        func nearEnd(_ pattern: String, _ template: String) throws -> String {
            let changed = tail.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
            guard changed != tail else { throw ValidationError("the last one has nothing matching \(pattern)") }
            return head + changed
        }
        // Events have no nested objects (make-listings writes none): each one's members as a run
        // without braces, or (--wrapped) its tag and its content object.
        let tagLast =
            !events ? ""
            : wrapped
                ? text.replacingOccurrences(of: #"\{"type":("[^"]*"),"data":(\{[^{}]*\})\}"#, with: #"{"data":$2,"type":$1}"#, options: .regularExpression)
            : text.replacingOccurrences(of: #"\{"type"\s*:\s*("[^"]*")\s*,([^{}]*)\}"#, with: #"{$2,"type":$1}"#, options: .regularExpression)
        let all: [(name: String, text: String)] =
            events
            ? [
                ("valid", text),
                ("type-mismatch", try nearEnd(#""id"\s*:\s*([0-9]+)"#, #""id": "$1""#)),
                ("missing-field", try nearEnd(#",\s*"at"\s*:\s*"[^"]*""#, "")),
                ("bad-date", try nearEnd(#""at"\s*:\s*"[^"]*""#, #""at": "yesterday""#)),
                ("unknown-tag", try nearEnd(#""type"\s*:\s*"[^"]*""#, #""type": "listing.bogus""#)),
                ("violation-in-every-event", text.replacingOccurrences(of: #""id"\s*:\s*[0-9]+"#, with: #""id": 0"#, options: .regularExpression)),
                // Each event's tag moved last (a valid document), then with a violation in every event too.
                ("tag-last", tagLast),
                ("tag-last-violation-in-every-event", tagLast.replacingOccurrences(of: #""id"\s*:\s*[0-9]+"#, with: #""id": 0"#, options: .regularExpression)),
            ]
            : [
                ("valid", text),
                ("syntax", try nearEnd(#""sold"\s*:\s*"#, #""sold" "#)),
                ("type-mismatch", try nearEnd(#""sold"\s*:\s*(true|false)"#, #""sold": "$1""#)),
                ("missing-field", try nearEnd(#""sold"\s*:\s*(true|false)\s*,\s*"#, "")),
                ("duplicate-key", try nearEnd(#""sold"\s*:\s*(true|false)\s*,\s*"#, #""sold": $1, "sold": $1, "#)),
                ("rule-violation", try nearEnd(#""price"\s*:\s*"[^"]*""#, #""price": "-1""#)),
                ("bad-date", try nearEnd(#""created"\s*:\s*"[^"]*""#, #""created": "yesterday""#)),
                ("bad-enum", try nearEnd(#""tags"\s*:\s*\["#, #""tags": ["bogus", "#)),
                ("relation", try nearEnd(#""last_updated"\s*:\s*"[^"]*""#, #""last_updated": "2000-01-01T00:00:00Z""#)),
                ("violation-in-every-listing", text.replacingOccurrences(of: #""price"\s*:\s*"[^"]*""#, with: #""price": "-1""#, options: .regularExpression)),
            ]
        if let only, !all.contains(where: { $0.name == only }) {
            throw ValidationError("no defect class \(only): \(all.map(\.name).joined(separator: ", "))")
        }
        let documents = all.enumerated().filter { $0.offset == 0 || $0.element.name == only || only == nil }.map(\.element)
        if wrapped {
            try measure([WrappedListingEvent].self, documents)
        } else if events {
            try measure([ListingEvent].self, documents)
        } else {
            try measure([Listing].self, documents)
        }
    }

    private func measure<T: Decodable>(_ type: T.Type, _ documents: [(name: String, text: String)]) throws {
        let decoder = VettedJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.limits = Limits(maxInputBytes: .max)
        let datas = documents.map { Data($0.text.utf8) }
        for (index, data) in datas.enumerated() {
            let answer = Result { try decoder.decode(T.self, from: data) }
            switch (index, answer) {
            case (0, .success), (1..., .failure): continue
            case (_, .success) where documents[index].name == "tag-last": continue
            case (_, .success): throw ValidationError("\(documents[index].name): decoded, but it has a defect")
            case (_, .failure(let error)): throw ValidationError("the valid document failed: \(error)")
            }
        }
        let medians = try timing.medians(datas.map { data in { try? decoder.decode(T.self, from: data) } })
        let prefix = wrapped ? "decode-invalid-wrapped" : events ? "decode-invalid-events" : "decode-invalid"
        for (index, document) in documents.enumerated() {
            let throughput = Double(datas[index].count) / medians[index] / 1e6
            print("\(prefix).\(document.name)\t\(String(format: "%.1f", throughput))\t\(String(format: "%.2f", medians[index] / medians[0]))")
        }
    }
}

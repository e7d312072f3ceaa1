import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// Structural errors collected straight from the bytes, under `.collect`: a field's value of the
// wrong kind or that does not convert, an element's, a required field that never came. The
// tape path records each one and goes on (`RuleEngine.recover`), reading fields in declaration
// order and elements in order; this reader does the same as the bytes come. A generated body or
// array hands each error to ``JSONDirectReader/recover(_:)``, which records it with its place in
// the tape path's order (at each open container, the field's position in its type or the
// element's index), skips the value with every check the parser makes, and lets the body go
// on; the body then ends with ``JSONDirectReader/recorded()`` (a required field that never came
// is recorded there, in its place), and so does its parent, up to the call. So a document
// that does not fit its model is read once, and its errors are the tape path's, in its order,
// the first ones up to the cap kept and the rest counted. An internally tagged union's payload
// recovers as a struct does (its object is the union's, so closing it ends the union), and so
// does an adjacently tagged one's (the union's own object is then closed by the caller's
// ``JSONDirectReader/recover(_:)``); a tag no case has is recorded at the union's place with the
// rest of its object skipped. Anything else in doubt is a miss, as before: the tape path reads
// the document and collects.

/// The structural errors a direct decode recorded: the first `capacity` in the tape path's
/// order (a bounded heap, its greatest key on top), and how many others there were.
struct DirectStructuralRecord {
    private struct Entry {
        let key: [Int]
        let error: DecodingError
    }

    private var heap: [Entry] = []
    private var omitted = 0

    var isEmpty: Bool { heap.isEmpty && omitted == 0 }

    /// Whether an error at `key` would be kept among the first `capacity` (else it is only counted).
    func keeps(_ key: [Int], capacity: Int) -> Bool {
        guard let top = heap.first, heap.count >= Swift.max(capacity, 1) else { return true }
        return key.lexicographicallyPrecedes(top.key)
    }

    /// Records the located `error` at `key`, keeping the first `capacity` (at least one).
    mutating func record(_ error: DecodingError, at key: [Int], capacity: Int) {
        let entry = Entry(key: key, error: error)
        if heap.count < Swift.max(capacity, 1) {
            heap.append(entry)
            siftUp(heap.count - 1)
        } else {
            guard let top = heap.first, key.lexicographicallyPrecedes(top.key) else {
                omitted += 1
                return
            }
            heap[0] = entry
            siftDown(0)
            omitted += 1
        }
    }

    /// Counts an error that is not kept.
    mutating func count() { omitted += 1 }

    /// What the call throws: the first error in the tape path's order, carrying the others.
    var failure: DecodingError? {
        let ordered = heap.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        guard let first = ordered.first else { return nil }
        var others: [VettedError] = []
        var uncounted = omitted
        for entry in ordered.dropFirst() {
            if let error = entry.error.vettedError { others.append(error) } else { uncounted += 1 }
        }
        return first.error.carrying(others: others, omitted: uncounted)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].key.lexicographicallyPrecedes(heap[child].key) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var largest = left
            let right = left + 1
            if right < heap.count && heap[left].key.lexicographicallyPrecedes(heap[right].key) { largest = right }
            guard heap[parent].key.lexicographicallyPrecedes(heap[largest].key) else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}

extension JSONDirectReader {
    /// What a generated body or array does with the error one of its fields or elements threw:
    /// under `.collect`, a structural error recorded with the value ahead is kept in its place,
    /// the value skipped, and the caller goes on; a value that already recorded its errors
    /// (``_VettedDirectMiss/recorded``) is taken the same way. Anything else stays a miss.
    /// An adjacently tagged union the error left open (its payload recorded its errors, or is
    /// not an object) is closed here: its generated body does not catch.
    mutating func recover(_ error: any Error) throws(_VettedDirectMiss) {
        let miss = Self.miss(error)
        if miss.recorded {
            if containers.last?.isUnionContent == true { try closeAdjacentUnion() }
            return
        }
        guard collects, let failure else { throw miss }
        switch failure.resume {
        case .valueAhead:
            guard let key = orderKey(appending: nil) else { throw miss }
            self.failure = nil
            record(failure, at: key)
            try skipValue()
            if containers.last?.isUnionContent == true { try closeAdjacentUnion() }
        case .membersAhead:
            // A union whose tag no case has: the rest of its object is skipped and closed, and
            // the error kept at the union's place in its parent.
            guard object.closesUnion else { throw miss }
            self.failure = nil
            while try nextField() != nil { try skipValue() }
            closeUnionObject()
            guard let key = orderKey(appending: nil) else { throw miss }
            record(failure, at: key)
        case .objectClosed:
            throw miss
        }
    }

    /// Pops the object just closed; an internally tagged union's (its payload's) ends the union.
    private mutating func closeUnionObject() {
        if object.closesUnion { unionDepth -= 1 }
        object = outer.popLast() ?? DirectObject(info: .none)
        settleClosedObject()
    }

    /// What a generated body throws after it recovered from some field's error: every required
    /// field that never came is recorded in its place, and the object is left as
    /// ``endObject(_:)`` leaves it (its relations are not run: its value is not made).
    mutating func recorded() -> any Error {
        guard collects else { return _VettedDirectMiss() }
        let required = object.info.table.isRequired
        for field in required.indices where required[field] && field < 64 && object.seen & (1 << UInt64(field)) == 0 {
            // A field this reader cannot name is the tape path's to report.
            guard let missing = missingFailure(field), let key = orderKey(appending: field) else { return _VettedDirectMiss() }
            record(missing, at: key)
        }
        orderRuns()
        closeUnionObject()
        return _VettedDirectMiss(recorded: true)
    }

    /// A required field that never came: under `.collect`, every one the object lacks is
    /// recorded (``recorded()``); otherwise the tape path's error, recorded as the answer.
    mutating func missing(_ field: Int) -> any Error {
        guard collects, failure == nil else { return recordMissing(field) }
        return recorded()
    }

    /// What an array throws after it recovered from some element's error (it is closed).
    func recordedElements() -> any Error {
        _VettedDirectMiss(recorded: collects)
    }

    /// The structural errors recorded, as the call's answer once nothing but whitespace follows
    /// the value (`nil`: something does; the parser's error is then the answer, or a miss).
    mutating func collectedFailure() -> (any Error)? {
        guard let failure = structural.failure else { return nil }
        do { _ = try finished(()) } catch { return nil }
        return failure
    }

    /// The error `failure` records, located as the tape path locates it, kept at `key`.
    private mutating func record(_ failure: DirectFailure, at key: [Int]) {
        guard structural.keeps(key, capacity: cap) else {
            structural.count()
            return
        }
        let source = document.source
        let located = failure.error.located { _ in ValueLocation(offset: failure.offset, source: source) }
        structural.record(located, at: key, capacity: cap)
    }

    /// Where the value being read comes in the tape path's order: at each open container, the
    /// field's position in its type (an object) or the element's index (an array), then `field`
    /// (`nil`: a container this reader cannot name).
    func orderKey(appending field: Int?) -> [Int]? {
        var key: [Int] = []
        key.reserveCapacity(containers.count + 1)
        // The objects of the open object containers, outermost first: `outer[1...]`, then `object`.
        var next = 1
        for container in containers {
            if container.step >= 0 {
                key.append(container.step)
                continue
            }
            if container.isUnionContent {
                // An adjacently tagged union reads its tag, then its content.
                key.append(1)
                continue
            }
            if next < outer.count {
                key.append(outer[next].field)
            } else if next == outer.count {
                key.append(object.field)
            } else {
                return nil
            }
            next += 1
        }
        if let field { key.append(field) }
        return key
    }
}

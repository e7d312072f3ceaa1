import Foundation
@_spi(Scanning) import VettedCore
import VettedDecoding
import VettedRules

// Rule violations met straight from the bytes: recorded where they are found, and
// decoding goes on, as the tape path's rule engine does. The tape path offers a
// type's fields in declaration order, and the bytes come in document order, so
// each object keeps which field every run of its violations belongs to and, when
// it closes, puts the runs in declaration order: the list is the tape path's,
// error for error (code, path, offset, message, in order). The cap bounds what is
// kept: a run of one field is in its final order, so past the cap within it
// nothing more of it can be among the first; once no object is open, what was
// recorded is final, and past the cap nothing more is built at all.

/// What a direct decode gave: the value, the violations of a document that has the
/// model's shape (the call's answer), or a miss (the tape path decides).
enum DirectOutcome<T> {
    case value(T)
    case violations(ValidationErrors)
    /// A structural error (a wrong kind, a missing field) that the tape path would give.
    case failure(any Error)
    case miss
}

/// A run of violations recorded while one field of an object was read.
struct ViolationRun {
    let field: Int
    let start: Int
    let end: Int
}

extension JSONDirectReader {
    /// How many violations are kept: the mode's cap, or the first one in fail-fast mode.
    static func cap(of mode: ValidationMode) -> Int {
        switch mode {
        case .collect(let cap): Swift.max(0, cap)
        case .failFast: 1
        }
    }

    /// The violations of the call, as the tape path's rule engine ends it (`nil`: none).
    var outcome: ValidationErrors? {
        guard !violations.isEmpty || omitted > 0 else { return nil }
        switch document.engine.mode {
        case .failFast: return ValidationErrors(errors: Array(violations.prefix(1)), omitted: 0)
        case .collect: return ValidationErrors(errors: violations, omitted: omitted)
        }
    }

    /// Records a field's violation (`relation`: a relation's, reported at that key of the
    /// object just closed). One that says a rule is declared wrong is left to the tape path.
    @inline(never)
    mutating func violated(_ violation: RuleViolation, relation: String? = nil) throws(_VettedDirectMiss) {
        guard !violation.code.isRuleDeclaration else { throw _VettedDirectMiss() }
        // Past the cap: counted, never built.
        let since = relation == nil ? object.fieldStart : object.regionStart
        guard settled < cap, violations.count - since < cap else {
            omitted += 1
            return
        }
        let path = try codingPath(appending: relation)
        let location = relation == nil ? fieldValueLocation() : nil
        violations.append(document.engine.error(violation, at: path, location))
    }

    /// The path of the field being read (or of `key` in the object just closed); a container
    /// this cannot name is a miss, never a path with a part left out.
    /// `containers`: of the open containers, how many the path goes through (all by default).
    func codingPath(appending key: String?, containers count: Int? = nil) throws(_VettedDirectMiss) -> [any CodingKey] {
        // The open objects, outermost first: `outer` but its first entry (the state before the
        // root), then `object`; read in place (a copy of each would retain all it holds).
        let objectCount = Swift.max(outer.count, 1)
        var next = 0
        var path: [any CodingKey] = []
        for container in containers.prefix(Swift.max(0, count ?? containers.count)) {
            let step = container.step
            if step >= 0 {
                path.append(PathKey(intValue: step))
            } else if container.isUnionContent {
                path.append(PathKey(stringValue: try contentKey(of: container).text))
            } else {
                guard next < objectCount else { throw _VettedDirectMiss() }
                let name: String?
                if next == objectCount - 1 {
                    name = object.info.table.spellings.indices.contains(object.spelling) ? object.info.table.spellings[object.spelling] : nil
                } else {
                    let spellings = outer[next + 1].info.table.spellings
                    let spelling = outer[next + 1].spelling
                    name = spellings.indices.contains(spelling) ? spellings[spelling] : nil
                }
                guard let name else { throw _VettedDirectMiss() }
                path.append(PathKey(stringValue: name))
                next += 1
            }
        }
        if let key { path.append(PathKey(stringValue: key)) }
        return path
    }

    /// Where the tape path locates the value of the field being read: a scalar's first
    /// byte (a string's quote), a container's key.
    private func fieldValueLocation() -> ValueLocation {
        var scanner = reader.scannerState
        scanner.offset = object.valueStart
        scanner.skipWhitespace()
        let byte = scanner.current
        let offset = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") ? object.keyStart : scanner.offset
        return ValueLocation(offset: offset, source: document.source)
    }

    /// Ends the run of the field just read (called before the next member, and at the close).
    @inline(__always)
    mutating func endRun() {
        guard violations.count != object.fieldStart else { return }
        object.runs.append(ViolationRun(field: object.field, start: object.fieldStart, end: violations.count))
        object.fieldStart = violations.count
    }

    /// The object's runs in declaration order (the order the tape path reads its fields in).
    mutating func orderRuns() {
        let runs = object.runs
        guard runs.count > 1, let first = runs.first, let last = runs.last else { return }
        if zip(runs, runs.dropFirst()).allSatisfy({ $0.field < $1.field }) { return }
        var ordered: [VettedError] = []
        for run in runs.sorted(by: { $0.field < $1.field }) { ordered.append(contentsOf: violations[run.start..<run.end]) }
        violations.replaceSubrange(first.start..<last.end, with: ordered)
    }

    /// After an object closed: its violations are part of the enclosing object's current
    /// field (kept up to the cap), or final when no object is open.
    mutating func settleClosedObject() {
        let excess = violations.count - object.fieldStart - cap
        if excess > 0 {
            violations.removeLast(excess)
            omitted += excess
        }
        if outer.isEmpty { settled = violations.count }
    }
}

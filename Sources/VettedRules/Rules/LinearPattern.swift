public import VettedCore

/// A regular expression matched in time linear in the input: the pattern is
/// compiled to a Thompson automaton and simulated breadth-first, so there is
/// no backtracking and no catastrophic case (`(a+)+$` on "aaaa…b" is linear).
///
/// Syntax (the whole input must match; no anchors needed):
/// literals; `.`; classes `[a-z0-9_]`, `[^…]`; escapes `\d \w \s \D \W \S` and
/// `\` before any special character; groups `( )`; alternation `|`;
/// quantifiers `* + ?` and `{m}`, `{m,}`, `{m,n}` (n ≤ 100). Matching works on
/// Unicode scalars. Patterns are limited to 1,000 bytes and 10,000 compiled
/// instructions.
public struct LinearPattern: Sendable, Hashable {
    public let source: String
    private let program: [Instruction]
    /// The same automaton as bit sets, for programs of up to 64 instructions.
    private let small: SmallAutomaton?

    enum Instruction: Sendable, Hashable {
        case scalar(CharacterSet)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    struct CharacterSet: Sendable, Hashable {
        var ranges: [ClosedRange<UInt32>]
        var negated = false
        func contains(_ value: UInt32) -> Bool {
            // Long lists (a Unicode category) are sorted and disjoint: a binary search.
            guard ranges.count > Self.sortedThreshold else { return ranges.contains { $0.contains(value) } != negated }
            var low = 0
            var high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
            }
            return (low < ranges.count && ranges[low].contains(value)) != negated
        }

        /// Sets with more ranges than this keep them sorted and merged.
        static let sortedThreshold = 32

        /// `ranges` sorted by lower bound, overlapping and touching ones merged.
        static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                    result[result.count - 1] = last.lowerBound...Swift.max(last.upperBound, range.upperBound)
                } else {
                    result.append(range)
                }
            }
            return result
        }
        static let any = CharacterSet(ranges: [0...0x10FFFF])
        static let digit = CharacterSet(ranges: [0x30...0x39])
        static let word = CharacterSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        static let space = CharacterSet(ranges: [0x09...0x0D, 0x20...0x20])

        /// Every scalar value outside `ranges` (sorted and disjoint, as the shorthand classes are).
        static func complement(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
            var result: [ClosedRange<UInt32>] = []
            var next: UInt32 = 0
            for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
                if range.upperBound >= 0x10FFFF { return result }
                next = Swift.max(next, range.upperBound + 1)
            }
            result.append(next...0x10FFFF)
            return result
        }
    }

    indirect enum Node {
        case set(CharacterSet)
        case sequence([Node])
        case alternatives([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    static let maximumSourceBytes = 1_000
    static let maximumInstructions = 10_000
    static let maximumRepeat = 100

    /// Compiles `source`; throws `invalidPattern` when it is malformed or too large.
    ///
    /// - Throws: `VettedError` `invalidPattern` for a pattern that does not compile (the message names its position), is longer than 1,000 bytes or compiles to more than 10,000 instructions.
    public init(_ source: String) throws(VettedError) {
        guard source.utf8.count <= Self.maximumSourceBytes else {
            throw VettedError(code: .invalidPattern, message: "pattern is longer than \(Self.maximumSourceBytes) bytes")
        }
        var parser = Parser(scalars: Array(source.unicodeScalars))
        let node = try parser.parseAlternatives(depth: 0)
        guard parser.index == parser.scalars.count else { throw parser.failure("unbalanced ')'") }
        var program: [Instruction] = []
        try Self.compile(node, into: &program)
        program.append(.match)
        self.source = source
        self.program = program
        self.small = SmallAutomaton(program)
    }

    /// Whether the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        if let small { return small.matches(text, program: program) }
        var current: [Int] = []
        var next: [Int] = []
        var marks = [Int](repeating: -1, count: program.count)
        var stack: [Int] = []
        var generation = 0
        Self.add(0, in: program, to: &current, marks: &marks, generation: generation, stack: &stack)
        for scalar in text.unicodeScalars {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                if case .scalar(let set) = program[pc], set.contains(scalar.value) {
                    Self.add(pc + 1, in: program, to: &next, marks: &marks, generation: generation, stack: &stack)
                }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { program[$0] == .match }
    }

    /// Adds `start` and everything reachable from it without input (iteratively).
    /// `stack` is scratch space, reused across calls so that matching allocates once.
    fileprivate static func add(
        _ start: Int, in program: [Instruction], to list: inout [Int], marks: inout [Int], generation: Int, stack: inout [Int]
    ) {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let pc = stack.popLast() {
            guard program.indices.contains(pc), marks[pc] != generation else { continue }
            marks[pc] = generation
            switch program[pc] {
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .scalar, .match: list.append(pc)
            }
        }
    }

    private static func compile(_ node: Node, into program: inout [Instruction]) throws(VettedError) {
        guard program.count < maximumInstructions else {
            throw VettedError(code: .invalidPattern, message: "pattern compiles to more than \(maximumInstructions) instructions")
        }
        switch node {
        case .set(let set):
            program.append(.scalar(set))
        case .sequence(let nodes):
            for node in nodes { try compile(node, into: &program) }
        case .alternatives(let nodes):
            guard let first = nodes.first else { return }
            if nodes.count == 1 { return try compile(first, into: &program) }
            let split = program.count
            program.append(.split(split + 1, 0))
            try compile(first, into: &program)
            let jump = program.count
            program.append(.jump(0))
            let rest = program.count
            program[split] = .split(split + 1, rest)
            try compile(.alternatives(Array(nodes.dropFirst())), into: &program)
            program[jump] = .jump(program.count)
        case .repetition(let inner, let min, let max):
            for _ in 0..<min { try compile(inner, into: &program) }
            if let max {
                for _ in min..<max {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try compile(inner, into: &program)
                    program[split] = .split(split + 1, program.count)
                }
            } else {
                let split = program.count
                program.append(.split(split + 1, 0))
                try compile(inner, into: &program)
                program.append(.jump(split))
                program[split] = .split(split + 1, program.count)
            }
        }
    }

    /// Recursive descent, depth-limited (patterns are short and come from code).
    struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        func failure(_ message: String) -> VettedError {
            VettedError(code: .invalidPattern, message: "invalid pattern at \(index): \(message)")
        }

        mutating func parseAlternatives(depth: Int) throws(VettedError) -> Node {
            guard depth < 50 else { throw failure("groups nested too deeply") }
            var alternatives = [try parseSequence(depth: depth)]
            while index < scalars.count, scalars[index] == "|" {
                index += 1
                alternatives.append(try parseSequence(depth: depth))
            }
            return alternatives.count == 1 ? alternatives[0] : .alternatives(alternatives)
        }

        mutating func parseSequence(depth: Int) throws(VettedError) -> Node {
            var items: [Node] = []
            while index < scalars.count, scalars[index] != "|", scalars[index] != ")" {
                var atom = try parseAtom(depth: depth)
                while index < scalars.count {
                    switch scalars[index] {
                    case "*": atom = .repetition(atom, min: 0, max: nil)
                    case "+": atom = .repetition(atom, min: 1, max: nil)
                    case "?": atom = .repetition(atom, min: 0, max: 1)
                    case "{": atom = try parseBraces(atom)
                        continue
                    default: break
                    }
                    if ["*", "+", "?"].contains(scalars[index]) { index += 1 } else { break }
                }
                items.append(atom)
            }
            return .sequence(items)
        }

        mutating func parseBraces(_ atom: Node) throws(VettedError) -> Node {
            index += 1  // {
            func number() -> Int? {
                var value = 0
                var digits = 0
                while index < scalars.count, let digit = Int(String(scalars[index])), digits < 4 {
                    value = value * 10 + digit
                    digits += 1
                    index += 1
                }
                return digits > 0 ? value : nil
            }
            guard let min = number() else { throw failure("expected a number after '{'") }
            var max: Int? = min
            if index < scalars.count, scalars[index] == "," {
                index += 1
                max = number()
            }
            guard index < scalars.count, scalars[index] == "}" else { throw failure("expected '}'") }
            index += 1
            guard min <= Self.maximumRepeatBound, (max ?? min) <= Self.maximumRepeatBound, min <= (max ?? min) else {
                throw failure("repetition bounds must be ordered and at most \(Self.maximumRepeatBound)")
            }
            return .repetition(atom, min: min, max: max)
        }

        static let maximumRepeatBound = LinearPattern.maximumRepeat

        mutating func parseAtom(depth: Int) throws(VettedError) -> Node {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "(":
                let inner = try parseAlternatives(depth: depth + 1)
                guard index < scalars.count, scalars[index] == ")" else { throw failure("missing ')'") }
                index += 1
                return inner
            case ".": return .set(.any)
            case "[": return .set(try parseClass())
            case "\\": return .set(try parseEscape())
            case "*", "+", "?", "{": throw failure("quantifier with nothing to repeat")
            case "^" where index == 1, "$" where index == scalars.count: return .sequence([])
            default: return .set(CharacterSet(ranges: [scalar.value...scalar.value]))
            }
        }

        mutating func parseEscape() throws(VettedError) -> CharacterSet {
            guard index < scalars.count else { throw failure("pattern ends with '\\'") }
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "d": return .digit
            case "w": return .word
            case "s": return .space
            case "D": return CharacterSet(ranges: CharacterSet.digit.ranges, negated: true)
            case "W": return CharacterSet(ranges: CharacterSet.word.ranges, negated: true)
            case "S": return CharacterSet(ranges: CharacterSet.space.ranges, negated: true)
            case "n": return CharacterSet(ranges: [0x0A...0x0A])
            case "t": return CharacterSet(ranges: [0x09...0x09])
            case "p", "P":
                // A Unicode general category, as ECMA-262 writes it with the `u` flag: \p{L}, \p{Letter}, \P{Nd}.
                guard index < scalars.count, scalars[index] == "{", let close = scalars[index...].firstIndex(of: "}") else {
                    throw failure("expected '{' and a category name after '\\\(scalar)'")
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
                guard let ranges = UnicodeCategories.ranges(named: name) else { throw failure("unknown Unicode category '\(name)'") }
                index = close + 1
                return CharacterSet(ranges: ranges, negated: scalar == "P")
            default:
                guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                    throw failure("unknown escape '\\\(scalar)'")
                }
                return CharacterSet(ranges: [scalar.value...scalar.value])
            }
        }

        mutating func parseClass() throws(VettedError) -> CharacterSet {
            var set = CharacterSet(ranges: [])
            if index < scalars.count, scalars[index] == "^" {
                set.negated = true
                index += 1
            }
            var first = true
            while index < scalars.count, scalars[index] != "]" || first {
                first = false
                var low: UInt32
                if scalars[index] == "\\" {
                    index += 1
                    let escaped = try parseEscape()
                    if escaped.ranges.count != 1 || escaped.negated || escaped.ranges[0].count != 1 {
                        // `\D`, `\W`, `\S` inside a class add everything outside their set.
                        set.ranges += escaped.negated ? CharacterSet.complement(of: escaped.ranges) : escaped.ranges
                        continue
                    }
                    low = escaped.ranges[0].lowerBound
                } else {
                    low = scalars[index].value
                    index += 1
                }
                if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                    let high = scalars[index + 1].value
                    index += 2
                    guard low <= high else { throw failure("class range out of order") }
                    set.ranges.append(low...high)
                } else {
                    set.ranges.append(low...low)
                }
            }
            guard index < scalars.count else { throw failure("missing ']'") }
            index += 1
            if set.ranges.count > CharacterSet.sortedThreshold { set.ranges = CharacterSet.normalized(set.ranges) }
            return set
        }
    }
}

/// A Thompson automaton of at most 64 states run as bit sets: a step is a
/// table lookup and a few OR operations, with no allocation.
private struct SmallAutomaton: Sendable, Hashable {
    /// For each state, the consuming states (and the match) reachable from it without input.
    let closures: [UInt64]
    /// For each ASCII byte, the consuming states whose set contains it.
    let ascii: [UInt64]
    let matchStates: UInt64

    init?(_ program: [LinearPattern.Instruction]) {
        guard program.count <= 64 else { return nil }
        var closures: [UInt64] = []
        var marks = [Int](repeating: -1, count: program.count)
        var states: [Int] = []
        var stack: [Int] = []
        for start in program.indices {
            states.removeAll(keepingCapacity: true)
            LinearPattern.add(start, in: program, to: &states, marks: &marks, generation: start, stack: &stack)
            closures.append(states.reduce(0) { $0 | 1 << UInt64($1) })
        }
        var ascii = [UInt64](repeating: 0, count: 128)
        var matchStates: UInt64 = 0
        for (pc, instruction) in program.enumerated() {
            switch instruction {
            case .scalar(let set):
                for byte in 0..<128 where set.contains(UInt32(byte)) { ascii[byte] |= 1 << UInt64(pc) }
            case .match: matchStates |= 1 << UInt64(pc)
            case .jump, .split: break
            }
        }
        self.closures = closures
        self.ascii = ascii
        self.matchStates = matchStates
    }

    func matches(_ text: String, program: [LinearPattern.Instruction]) -> Bool {
        guard let first = closures.first else { return false }
        var current = first
        for scalar in text.unicodeScalars {
            var consuming: UInt64
            if scalar.value < 128 {
                consuming = current & ascii[Int(scalar.value)]
            } else {
                consuming = 0
                var states = current
                while states != 0 {
                    let pc = states.trailingZeroBitCount
                    states &= states &- 1
                    if case .scalar(let set) = program[pc], set.contains(scalar.value) { consuming |= 1 << UInt64(pc) }
                }
            }
            var next: UInt64 = 0
            while consuming != 0 {
                let pc = consuming.trailingZeroBitCount
                consuming &= consuming &- 1
                if pc + 1 < closures.count { next |= closures[pc + 1] }
            }
            current = next
            if current == 0 { return false }
        }
        return current & matchStates != 0
    }
}

import VettedJSON

/// One text per JSON value as JSON Schema compares them (`enum`, `const`,
/// `uniqueItems`): numbers by value (`1` and `1.0` alike), objects whatever
/// their member order. Equal values have equal texts, and only they: set
/// membership on these texts is a hash lookup, never a pairwise scan.
/// Built without recursion, so any depth is safe.
enum CanonicalJSON {
    static func text(_ value: JSONValue) -> CodePoints { CodePoints(build(value)) }

    private static func build(_ value: JSONValue) -> String {
        var output = ""
        enum Step {
            case value(JSONValue)
            case literal(String)
        }
        var steps: [Step] = [.value(value)]
        while let step = steps.popLast() {
            switch step {
            case .literal(let text):
                output += text
            case .value(let value):
                switch value {
                case .null: output += "n"
                case .bool(let flag): output += flag ? "t" : "f"
                case .number(let number): output += "#" + ExactNumber(number).description + ";"
                case .string(let string): output += quoted(string)
                case .array(let elements):
                    output += "["
                    steps.append(.literal("]"))
                    for (position, element) in elements.enumerated().reversed() {
                        steps.append(.value(element))
                        if position > 0 { steps.append(.literal(",")) }
                    }
                case .object(let object):
                    output += "{"
                    steps.append(.literal("}"))
                    let members = object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    for (position, member) in members.enumerated().reversed() {
                        steps.append(.value(member.value))
                        steps.append(.literal(quoted(member.key) + ":"))
                        if position > 0 { steps.append(.literal(",")) }
                    }
                }
            }
        }
        return output
    }

    /// A string's text: its length, then the string, so no string can imitate structure.
    private static func quoted(_ string: String) -> String {
        "\"\(string.utf8.count):" + string
    }
}

/// A string compared by its code points, as JSON Schema compares strings: `"é"` and
/// `"e\u{301}"` are two values, where Swift's `==` (canonical equivalence) finds one.
/// Hashed as a `String` (canonically equivalent texts share a hash; that is a collision,
/// not an equality).
struct CodePoints: Hashable, Sendable {
    let text: String
    /// Known to be all ASCII (`false` also when not looked at: a probe's).
    private let isASCII: Bool

    /// A value kept in a set: whether it is ASCII is found once.
    init(_ text: String) {
        self.text = text
        isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// A value looked up, not kept: its bytes are not read here.
    init(probe text: String) {
        self.text = text
        isASCII = false
    }

    /// Canonically equivalent texts of the same UTF-8 length, one of them ASCII, are the same
    /// bytes: a canonical decomposition that yields only ASCII is one character from a
    /// character of two bytes or more, so any such character would make the other text longer.
    static func == (a: CodePoints, b: CodePoints) -> Bool {
        guard a.text.utf8.count == b.text.utf8.count, a.text == b.text else { return false }
        if a.isASCII || b.isASCII { return true }
        var other = b.text.utf8.makeIterator()
        for byte in a.text.utf8 where other.next() != byte { return false }
        return true
    }

    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

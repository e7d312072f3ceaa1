import VettedJSON

/// One text per JSON value as JSON Schema compares them (`enum`, `const`,
/// `uniqueItems`): numbers by value (`1` and `1.0` alike), objects whatever
/// their member order. Equal values have equal texts, and only they: set
/// membership on these texts is a hash lookup, never a pairwise scan.
/// Built without recursion, so any depth is safe.
enum CanonicalJSON {
    static func text(_ value: JSONValue) -> String {
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

// Test helper, never shipped: decodes standard input with Foundation's
// PropertyListDecoder in a process of its own, so that a test can show what
// Foundation does with hostile input (exit 0 value, exit 1 error) — including
// when it crashes, which would take a test runner down with it.

import Foundation

/// A model that follows the input's nesting, as recursive models do.
struct Nest: Decodable {
    var depth: Int
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        depth = container.isAtEnd ? 0 : try container.decode(Nest.self).depth + 1
    }
}

let input = FileHandle.standardInput.readDataToEndOfFile()
do {
    let nest = try PropertyListDecoder().decode(Nest.self, from: input)
    print("value \(nest.depth)")
} catch {
    print("error \(error)")
    exit(1)
}

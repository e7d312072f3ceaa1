// The VettedJSONSchema catalog's sample, compiled and run.

// sample: VettedJSONSchema.md#1
import Foundation
import VettedJSONSchema

/// A listing's price checked against a schema compiled once.
struct PriceCheck {
    let schema: JSONSchema

    init() throws {
        schema = try JSONSchema(#"""
            {"type": "object", "required": ["price"],
             "properties": {"price": {"type": "number", "minimum": 0}}}
            """#)
    }

    /// One line per error: the keyword, where in the instance (path, line and
    /// column), and where in the schema.
    func problems(in body: Data) -> [String] {
        schema.validate(body).errors.map { error in
            let place = error.location.map { " (line \($0.line), column \($0.column))" } ?? ""
            let keyword = error.parameters["schemaLocation"]?.string ?? "?"
            return "\(error.code) at \(error.path)\(place), schema \(keyword)"
        }
    }
}

// try PriceCheck().problems(in: Data(#"{"price": -5}"#.utf8))
// ["minimum at $.price (line 1, column 11), schema /properties/price/minimum"]
// end sample

import Testing

@Suite struct JSONSchemaSampleTests {
    @Test func aPriceBelowZeroIsLocatedInTheInstanceAndInTheSchema() throws {
        #expect(
            try PriceCheck().problems(in: Data(#"{"price": -5}"#.utf8))
                == ["minimum at $.price (line 1, column 11), schema /properties/price/minimum"])
        #expect(try PriceCheck().problems(in: Data(#"{"price": 5}"#.utf8)) == [])
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import VettedCore

/// The error of one record of a stream, as its caller sees it: what decoding the record
/// alone threw, with every path (`DocumentPath` and `codingPath`) one step deeper, under
/// the record's index (`$[17].price`). Offsets, messages and excerpts stay the record's own.
package enum RecordErrors {
    package static func prefixing(_ error: any Error, index: Int) -> any Error {
        switch error {
        case let error as VettedError:
            return prefixing(error, index: index)
        case let errors as ValidationErrors:
            return prefixing(errors, index: index)
        case let error as DecodingError:
            return prefixing(error, index: index)
        default:
            // An error of the type's own making carries no path of ours to prefix.
            return error
        }
    }

    package static func prefixing(_ error: VettedError, index: Int) -> VettedError {
        var copy = error
        copy.path = DocumentPath([.index(index)] + error.path.components)
        // The record's other errors (collected under `.collect`) are under the same index.
        copy.others = error.others.map { prefixing($0, index: index) }
        return copy
    }

    static func prefixing(_ errors: ValidationErrors, index: Int) -> ValidationErrors {
        ValidationErrors(errors: errors.errors.map { prefixing($0, index: index) }, omitted: errors.omitted)
    }

    static func prefixing(_ error: DecodingError, index: Int) -> DecodingError {
        error.mappingContext { context in
            DecodingError.Context(
                codingPath: [PathKey(intValue: index)] + context.codingPath,
                debugDescription: context.debugDescription,
                underlyingError: context.underlyingError.map { prefixing($0, index: index) })
        }
    }
}

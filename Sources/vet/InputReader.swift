import ArgumentParser
import Foundation
import Vetted

/// Reads the command's input through the gate and reports what stops it:
/// exit 74 when it cannot be read, 1 when the gate refuses it (size, digest, signature).
enum InputReader {
    static func admit(_ path: String, policy: GatePolicy, diagnostics: Diagnostics) throws(ExitCode) -> VerifiedBytes {
        // A path named on the command line may be a pipe (`<(…)`): the user asked for it.
        let source: ByteSource = path == "-" ? .fileHandle(.standardInput) : .file(path: path, acceptingPipes: true)
        do {
            return try Gate.admit(source, policy: policy)
        } catch {
            throw diagnostics.fail(error)
        }
    }

    /// A small auxiliary file (a key, a signature): at most 64 KiB.
    static func auxiliary(_ path: String, what: String) throws -> [UInt8] {
        do {
            return try BoundedReader.read(contentsOfFile: path, maxBytes: 64 << 10, acceptingPipes: true)
        } catch {
            throw ValidationError("cannot read the \(what) \(Diagnostics.displayName(of: path)): \(error.message)")
        }
    }
}

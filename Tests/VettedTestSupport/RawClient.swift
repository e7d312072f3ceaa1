import Foundation

/// `scripts/interop/raw_http.py`: a client that sends a body slowly or never finishes it.
public enum RawClient {
    public static let available: Bool = (try? Interop.run(["python3", "-c", "import socket, select"]).status) == 0

    /// Posts to `127.0.0.1:port` as `mode` says (`trickle COUNT DELAY`, `over BYTES`, `declared LENGTH`);
    /// the status the server answered and its body.
    ///
    /// The process is waited for on a thread of its own: a wait on one of Swift's few
    /// cooperative threads would starve the server under test of the threads it answers on.
    public static func post(
        port: Int, path: String, contentType: String = "application/json", _ mode: [String]
    ) async throws -> (status: Int, body: String) {
        let arguments = ["python3", Interop.root + "/scripts/interop/raw_http.py", String(port), path, contentType] + mode
        let run = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(status: Int32, output: String), any Error>) in
            Thread { continuation.resume(with: Result { try Interop.run(arguments) }) }.start()
        }
        let lines = run.output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (Int(lines.first ?? "") ?? -1, lines.count > 1 ? String(lines[1]) : "")
    }
}

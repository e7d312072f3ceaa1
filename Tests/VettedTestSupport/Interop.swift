import Foundation

/// Peers Vetted did not write, run as processes: PyPI's `http-message-signatures`
/// (through `scripts/interop/httpsig_peer.py`) and OpenSSL.
public enum Interop {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    public static let peer = root + "/scripts/interop/httpsig_peer.py"

    public static let pythonPeer: Bool = (try? run(["python3", "-c", "import http_message_signatures, cryptography"]).status) == 0
    public static let openssl: Bool = (try? run(["openssl", "version"]).status) == 0

    public static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "vetted-interop-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs a command; its standard output and error together, and its exit status.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = try readAll(pipe.fileHandleForReading)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

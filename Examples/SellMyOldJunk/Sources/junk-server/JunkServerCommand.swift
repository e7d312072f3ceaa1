import ArgumentParser
import Foundation
import JunkServer

/// `junk-server`: the listings server, on loopback.
@main
struct JunkServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "junk-server",
        abstract: "Serves the Sell My Old Junk listings on loopback, signed.",
        discussion: """
            On first run the data directory is created with listings.sqlite (seeded with sample \
            listings) and the server's Ed25519 key pair: server.key (0600) and server.pub, the \
            public key clients pin (junk --server-key DIR/server.pub), also as server.pub.pem \
            (SubjectPublicKeyInfo) for RFC 9421 verifiers on other stacks. Every response carries \
            Content-Digest and an RFC 9421 signature (Signature-Input, Signature).
            """)

    @Option(help: "The port to listen on (127.0.0.1 only); 0 picks a free one.")
    var port = 8080

    @Option(help: "Where the database and the key pair live.")
    var dataDirectory = ".junk-server"

    @Option(help: "Seconds before an idle connection (or one sending its request head too slowly) is closed.")
    var idleTimeout = 15

    @Option(help: "Most open connections; more wait in the listen backlog.")
    var maxConnections = 1_024

    func validate() throws {
        guard idleTimeout > 0, maxConnections > 0 else { throw ValidationError("--idle-timeout and --max-connections are positive") }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: dataDirectory)
        let service = try ListingsServer.prepare(dataDirectory: directory)
        let limits = ConnectionLimits(idleTimeout: .seconds(idleTimeout), maxConnections: maxConnections)
        try await ListingsServer.run(service, port: port, limits: limits) { port in
            let line = "junk-server: listening on http://127.0.0.1:\(port); public key \(directory.appendingPathComponent(ServerIdentity.publicKeyFile).path)\n"
            FileHandle.standardOutput.write(Data(line.utf8))  // unbuffered: scripts and tests wait for this line
        }
    }
}

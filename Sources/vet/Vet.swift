import ArgumentParser

@main
struct Vet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vet",
        abstract: "Check untrusted data before you use it.",
        discussion: """
            Exit codes: 0 valid, 1 invalid data, 64 usage error, 74 unreadable input.
            """,
        subcommands: [
            JSONCommand.self, PlistCommand.self, ArchiveCommand.self, DigestCommand.self, KeygenCommand.self, SignCommand.self, VerifyCommand.self,
        ]
    )
}

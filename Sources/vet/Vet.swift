import ArgumentParser

@main
struct Vet: ParsableCommand {
    /// The version `vet --version` prints.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "vet",
        abstract: "Check untrusted data before you use it.",
        discussion: """
            Exit codes: \(VetExit.valid.rawValue) valid, \(VetExit.invalidData.rawValue) invalid data, \(VetExit.usage.rawValue) usage error, \(VetExit.unreadable.rawValue) unreadable input or unwritable output.
            """,
        version: version,
        subcommands: [
            JSONCommand.self, SchemaCommand.self, PlistCommand.self, ArchiveCommand.self, DigestCommand.self, KeygenCommand.self, SignCommand.self, VerifyCommand.self,
            VerifyHTTPCommand.self,
        ]
    )

    static func main() {
        Output.ignoreBrokenPipes()
        main(nil)
    }
}

/// The exit codes of every `vet` command, by name.
enum VetExit {
    /// The input is valid (or was written).
    static let valid = ExitCode.success
    /// The input is invalid: a diagnostic says what and where.
    static let invalidData = ExitCode(1)
    /// The command line is wrong (ArgumentParser's validation failure).
    static let usage = ExitCode.validationFailure
    /// The input could not be read (missing, not a regular file, over a limit before reading).
    static let unreadable = ExitCode(74)
    /// The output could not be written (a full disk, a closed descriptor): 74 too, EX_IOERR.
    static let outputFailed = ExitCode(74)
}

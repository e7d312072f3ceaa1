import Foundation
import JunkDemo
import JunkModel
import Testing

/// What `junk` prints of untrusted text never acts on the terminal.
@Suite struct TerminalTests {
    @Test func untrustedTextIsEscapedWherePrinted() {
        let terminal = Terminal(colour: false)
        let hostile = "Lamp\u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}txt.exe\u{0}"
        var listing = Listing.samples[0]
        listing.name = hostile  // made in code: a server's rules would have refused it
        let printed = [
            terminal.table([listing]),
            terminal.problems([Problem(path: hostile, code: hostile, message: hostile)]),
            terminal.shown("x\u{1B}[31m.purchase"),
        ].joined(separator: "\n")
        for character in ["\u{1B}", "\u{07}", "\u{202E}", "\u{0}"] {
            #expect(!printed.contains(character), "\(character.unicodeScalars.first.map { String($0.value, radix: 16) } ?? "")")
        }
        #expect(terminal.shown("x\u{1B}[31m.purchase") == "x\\u{1B}[31m.purchase")
    }
}

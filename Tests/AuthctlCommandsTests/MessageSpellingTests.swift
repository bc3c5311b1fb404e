import AuthCore
import Foundation
import Testing

@testable import AuthctlCommands

/// AuthCore names commands and inputs in its messages (`Message`); the executable spells
/// them (issue 13). Every spelling must be a command and an option the binary has, so
/// that no advice sends a person to a command that does not exist.
@Suite("the command line's spelling of AuthCore's messages")
struct MessageSpellingTests {
    let authctl = InProcessAuthctl()

    @Test("every command a message can name is a command of the binary, and every input one of its options")
    func spellingsExist() async throws {
        var helps = ""
        for verb in Message.Verb.allCases {
            let words = MessageSpelling.subcommand(verb).split(separator: " ").map(String.init)
            let help = try await authctl.run(words + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: authctl \(words.joined(separator: " "))"), "\(verb): \(help.stderr)")
            helps += help.stdout
        }
        for input in Message.Input.allCases {
            let option = MessageSpelling.option(input)
            #expect(helps.contains(option + " ") || helps.contains(option + "\n") || helps.contains(option + ","), "\(input) → \(option)")
        }
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    @Test("a damaged file's way out is a shell command that survives a quote in the path")
    func moveAside() {
        let plain: Message = "Fix or move it away (\(moveAside: "/home/ada/.config/authctl/config.json"))"
        #expect(
            MessageSpelling.words(plain)
                == "Fix or move it away (mv '/home/ada/.config/authctl/config.json' '/home/ada/.config/authctl/config.json.bad')")
        let quoted: Message = "\(moveAside: "/tmp/o'neil/keystore.json")"
        #expect(MessageSpelling.words(quoted) == #"mv '/tmp/o'\''neil/keystore.json' '/tmp/o'\''neil/keystore.json.bad'"#)
        #expect(!quoted.description.contains("mv "), "the core's own spelling holds no shell command")
    }

    @Test("a message is spelled with the binary's words: commands with their arguments, inputs as options")
    func spelled() {
        let handle = "pc_handle0000000000001"
        let message: Message =
            "sign in with apple.com (\(command: .login, "apple.com")), then run: \(command: .link, .input(.pending, handle)); or use \(input: .tenant) common"
        #expect(
            MessageSpelling.words(message)
                == "sign in with apple.com (authctl login apple.com), then run: authctl link --pending \(handle); or use --tenant common")
        #expect(MessageSpelling.words(AuthError.noCurrentUser.message) == "nobody is signed in. Sign in first: authctl login PROVIDER")
    }
}

import ArgumentParser
import AuthCore

/// `authctl unlock [--for D]`: the sealed keystore's key kept in the kernel keyring for a
/// while, so that programs that cannot answer a prompt (kubectl, git) get their tokens
/// (docs/keystore.md, "Unlocked for a while").
struct UnlockCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract:
            "Keep the sealed keystore's key in the kernel keyring for a while (15m by default), for kubectl, git and other programs that cannot answer a prompt.",
        discussion:
            "The passphrase is asked on the terminal (or read from AUTHCTL_KEYSTORE_PASSPHRASE, or the key file's). The key goes to the session keyring, readable in that session only, and the kernel forgets it when the time is up; authctl lock, in any of your sessions, forgets it at once."
    )
    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("How long: a number with s, m or h (at most 24h).", valueName: "DURATION"))
    var duration = "15m"
    @OptionGroup var global: GlobalOptions

    /// `90s`, `15m`, `2h`, or seconds alone; nil for anything else.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(text)
        var unit = 1
        if let last = digits.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isASCII), let value = Int(digits), value > 0 else { return nil }
        return value * unit
    }

    static let maximum = 24 * 3600

    func run(_ wiring: Wiring) async throws {
        guard let seconds = Self.seconds(duration), seconds <= Self.maximum else {
            throw AuthError.invalidArgument(
                Message(verbatim: "--for \(duration) is not a duration of at most 24 hours: give a number with s, m or h, such as 15m"))
        }
        try wiring.keystore().unlock(for: seconds)
        if global.json {
            wiring.output.json(.object(["path": .string(wiring.keystorePath), "seconds": .number(Double(seconds))]))
        }
        if !global.quiet {
            let shown = seconds % 3600 == 0 ? "\(seconds / 3600) h" : seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
            wiring.output.error(
                "Unlocked the keystore \(wiring.keystorePath) for \(shown): commands without a terminal open it meanwhile. Forget the key earlier with: authctl lock\n"
            )
        }
    }
}

/// `authctl lock`: forgets the key `unlock` kept.
struct LockCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract:
            "Forget the keystore's key that authctl unlock kept in the kernel keyring, before its time is up (from any of your sessions)."
    )
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let forgotten = wiring.keystore().lock()
        if global.json { wiring.output.json(.object(["path": .string(wiring.keystorePath), "forgotten": .bool(forgotten)])) }
        if !global.quiet {
            wiring.output.error(
                forgotten
                    ? "Locked the keystore \(wiring.keystorePath): its key is forgotten.\n"
                    : "The keystore \(wiring.keystorePath) was not unlocked: nothing to forget.\n")
        }
    }
}

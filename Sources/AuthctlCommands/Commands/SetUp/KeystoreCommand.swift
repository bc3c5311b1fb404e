import ArgumentParser
import AuthCore

/// `authctl keystore …`: how the keystore is protected at rest (docs/keystore.md, sealed).
struct KeystoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keystore",
        abstract: "Seal the keystore's tokens at rest (a key file, a passphrase or the keyring), unseal it, change its key.",
        subcommands: [Status.self, Seal.self, Unseal.self, Rekey.self, NewKey.self])

    struct Status: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether the keystore is sealed, and with what. Needs no key.")
        @OptionGroup var global: GlobalOptions

        /// The document of `keystore status --json`, which seal, rekey and unseal print too.
        static func document(_ wiring: Wiring) throws -> JSONValue {
            let status = try wiring.keystore().sealStatus()
            let source: String? =
                switch status.protection {
                case .plaintext: nil
                case .keyFile: "keyFile"
                case .passphrase: "passphrase"
                case .keyring: "keyring"
                }
            return .object([
                "path": .string(wiring.keystorePath), "exists": .bool(status.exists), "sealed": .bool(source != nil),
                "keySource": Output.optional(source), "version": .number(Double(status.version)),
                "users": .number(Double(status.users)), "keyFile": Output.optional(status.keyFile),
            ])
        }

        func run(_ wiring: Wiring) async throws {
            if global.json {
                wiring.output.json(try Self.document(wiring))
                return
            }
            let status = try wiring.keystore().sealStatus()
            wiring.output.line("Keystore: \(wiring.keystorePath)\(status.exists ? "" : " (does not exist yet)")")
            switch status.protection {
            case .plaintext:
                wiring.output.line(
                    "Plaintext (format version \(status.version)): anyone who can read the file can use its tokens. Seal it with: authctl keystore seal --key-file PATH"
                )
            case .keyFile, .passphrase, .keyring:
                let how =
                    status.protection == .keyFile
                    ? status.keyFile.map { "the key file \($0) (or AUTHCTL_KEYSTORE_KEY_FILE)" } ?? "a key file (AUTHCTL_KEYSTORE_KEY_FILE)"
                    : status.protection == .passphrase
                        ? "a passphrase (AUTHCTL_KEYSTORE_PASSPHRASE, or asked on a terminal)" : "the system keyring"
                wiring.output.line("Sealed with \(how), format version \(status.version).")
                wiring.output.line(
                    "Readable without the key: the profiles and linked providers of \(status.users) user\(status.users == 1 ? "" : "s"), and token lifetimes. Tokens are sealed."
                )
            }
        }
    }

    /// `--key-file PATH | --passphrase-env VAR | --passphrase-file PATH`: exactly one, or
    /// a passphrase asked twice on a terminal.
    struct SealOptions: ParsableArguments {
        @Option(
            name: .customLong("key-file"),
            help: ArgumentHelp("Seal with the 32-byte key in this file (authctl keystore new-key).", valueName: "PATH"), completion: .file()
        )
        var keyFile: String?
        @Option(
            name: .customLong("passphrase-env"),
            help: ArgumentHelp("Seal with the passphrase in this environment variable.", valueName: "VAR"))
        var passphraseEnv: String?
        @Option(
            name: .customLong("passphrase-file"),
            help: ArgumentHelp("Seal with the passphrase in this file (its first line).", valueName: "PATH"), completion: .file())
        var passphraseFile: String?
        @Flag(
            name: .customLong("keyring"),
            help: "Seal with a key kept in the system keyring (the Secret Service: GNOME Keyring, KWallet, KeePassXC).")
        var keyring = false

        func target(_ wiring: Wiring) throws -> KeystoreSealTarget {
            let given = [keyFile, passphraseEnv, passphraseFile, keyring ? "" : nil].compactMap { $0 }
            guard given.count <= 1 else {
                throw AuthError.invalidArgument(
                    "give one of \(input: .keyFile), \(input: .passphraseEnv), \(input: .passphraseFile) or \(input: .keyring), not several"
                )
            }
            if keyring { return .keyring(wiring.keyring) }
            if let keyFile { return .keyFile(path: keyFile) }
            if let passphraseEnv {
                guard let value = wiring.environment[passphraseEnv], !value.isEmpty else {
                    throw AuthError.invalidArgument(
                        "the environment variable \(passphraseEnv) is not set or empty (\(input: .passphraseEnv))")
                }
                return .passphrase(value)
            }
            if let passphraseFile {
                guard let data = try wiring.readFile(passphraseFile, what: "the passphrase file", code: .keystoreError),
                    data.count <= 4096,
                    let line = String(data: data, encoding: .utf8)?.split(separator: "\n", omittingEmptySubsequences: false).first,
                    !line.isEmpty
                else { throw AuthError.invalidArgument("the passphrase file \(passphraseFile) does not exist, is empty, or is not text") }
                return .passphrase(String(line.hasSuffix("\r") ? line.dropLast() : line))
            }
            let io = wiring.io
            guard io.stdin.isTerminal, io.stderr.isTerminal else {
                throw AuthError.invalidArgument(
                    "say how to seal the keystore: \(input: .keyFile) PATH, \(input: .passphraseEnv) VAR, \(input: .passphraseFile) PATH or \(input: .keyring) (a passphrase is asked only on a terminal)"
                )
            }
            wiring.output.error(
                "A copy of the keystore lets anyone try passphrases offline: choose one with \(KeystorePassphraseRule.description).\n")
            guard let first = try Wiring.askPassphrase("New keystore passphrase: ", io: io), !first.isEmpty else {
                throw AuthError.invalidArgument("the passphrase was empty. Nothing was changed")
            }
            // A weak one is refused before it is typed twice.
            if let weakness = KeystorePassphraseRule.weakness(of: first) {
                throw AuthError.invalidArgument(
                    "the new keystore passphrase is too weak (\(weakness)). Choose one with \(KeystorePassphraseRule.description). Nothing was changed"
                )
            }
            guard try Wiring.askPassphrase("Once more: ", io: io) == first else {
                throw AuthError.invalidArgument("the passphrases did not match. Nothing was changed")
            }
            return .passphrase(first)
        }
    }

    struct Seal: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "seal",
            abstract: "Seal every token of the keystore under a new data key, kept with a key file, a passphrase or the keyring.",
            discussion:
                "Profiles stay readable: status and users list work without the key. Other commands need the key: AUTHCTL_KEYSTORE_KEY_FILE or AUTHCTL_KEYSTORE_PASSPHRASE."
        )
        @OptionGroup var how: SealOptions
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let keystore = wiring.keystore()
            guard try keystore.sealStatus().protection == .plaintext else {
                throw AuthError.invalidArgument(
                    "the keystore \(wiring.keystorePath) is sealed already. Change its key with: \(command: .keystoreRekey)")
            }
            // Registration access tokens an earlier build kept beside the keystore: sealed with it.
            try await wiring.useCases().registrationSecrets.migrate()
            try await keystore.reseal(how.target(wiring))
            if global.json { wiring.output.json(try Status.document(wiring)) }
            if !global.quiet { wiring.output.error("Sealed the keystore \(wiring.keystorePath).\n") }
        }
    }

    struct Rekey: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "rekey",
            abstract: "Seal the keystore again under a new data key, kept another way (or the same); nobody is signed out.",
            discussion: "The current key comes from AUTHCTL_KEYSTORE_KEY_FILE or AUTHCTL_KEYSTORE_PASSPHRASE (or a prompt).")
        @OptionGroup var how: SealOptions
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let keystore = wiring.keystore()
            guard try keystore.sealStatus().protection != .plaintext else {
                throw AuthError.invalidArgument(
                    "the keystore \(wiring.keystorePath) is not sealed. Seal it with: \(command: .keystoreSeal)")
            }
            try await keystore.reseal(how.target(wiring))
            if global.json { wiring.output.json(try Status.document(wiring)) }
            if !global.quiet { wiring.output.error("Sealed the keystore \(wiring.keystorePath) under a new key.\n") }
        }
    }

    struct Unseal: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "unseal", abstract: "Write the keystore in plaintext again (format version 1), with its key.")
        @Flag(name: [.customShort("y"), .long], help: "Do not ask for confirmation on a terminal.") var yes = false
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            try wiring.confirm(
                "Write the keystore \(wiring.keystorePath) in plaintext, its tokens readable by anyone who can read the file?", yes: yes)
            try await wiring.keystore().reseal(nil)
            if global.json { wiring.output.json(try Status.document(wiring)) }
            if !global.quiet { wiring.output.error("The keystore \(wiring.keystorePath) is in plaintext.\n") }
        }
    }

    struct NewKey: AuthctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-key",
            abstract: "Print a new random 32-byte key in base64, for a key file: authctl keystore new-key > PATH; chmod 600 PATH.")
        @OptionGroup var global: GlobalOptions

        func run(_ wiring: Wiring) async throws {
            let key = KeystoreKeyFile.newKeyText()
            if global.json {
                wiring.output.json(.object(["key": .string(key.trimming(.whitespacesAndNewlines))]))
                return
            }
            wiring.output.write(Array(key.utf8))
        }
    }
}

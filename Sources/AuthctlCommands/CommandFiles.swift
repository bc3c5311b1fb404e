import AuthCore

/// Where a command's files are and how its keystore opens, from the global options and the
/// process's I/O: one definition for `Wiring` and for the token fast path, which builds no
/// `Wiring` (a `Wiring` holds the command's `ConfigStore`, whose making and unmaking alone
/// cost the hot path a quarter of a million instructions of run-time type lookups,
/// bench/README.md) but a `FastPathFiles`.
protocol CommandFiles {
    var options: Wiring.Settings { get }
    var io: AuthctlIO { get }
    /// Where the keystore's key is kept once it opened (`exec`), nil: nowhere.
    var keyMemory: KeystoreKeyMemory? { get }
}

/// The token fast path's `CommandFiles` (`AuthctlInvocation.finishWithoutConcurrency`), and
/// what finds config.json before a `Wiring` exists.
struct FastPathFiles: CommandFiles {
    let options: Wiring.Settings
    let io: AuthctlIO
    var keyMemory: KeystoreKeyMemory? = nil
}

extension CommandFiles {
    var keystorePath: String {
        options.keystore ?? io.variable("AUTHCTL_KEYSTORE") ?? "\(xdg("XDG_DATA_HOME", ".local/share"))/authctl/keystore.json"
    }

    var configPath: String {
        options.config ?? io.variable("AUTHCTL_CONFIG") ?? "\(xdg("XDG_CONFIG_HOME", ".config"))/authctl/config.json"
    }

    /// `$VARIABLE` when it is absolute, else `$HOME/fallback`.
    func xdg(_ variable: String, _ fallback: String) -> String {
        if let value = io.variable(variable), value.hasPrefix("/") { return value }
        return "\(io.variable("HOME") ?? Path.homeDirectory())/\(fallback)"
    }

    /// The keystore alone: what `status`, `users` and a cached `token` need; a sealed one
    /// opens with the key this process can give (`keystoreKeys`).
    /// `asking`: false for the token fast path, which runs before Ctrl-C can cancel anything
    /// (main.swift): a passphrase is asked only by the full command, where Ctrl-C ends the prompt.
    func keystore(asking: Bool = true) -> FileKeystore {
        var keys = keystoreKeys
        if !asking { keys.askPassphrase = nil }
        var keystore = FileKeystore(path: keystorePath, random: SystemRandomSource(), clock: SystemClock(), keys: keys)
        // A wait for another authctl's lock is told on a terminal, never without one.
        if io.stderr.isTerminal {
            let stderr = io.stderr
            keystore.lockWaiting = { holder in
                stderr.print("Waiting for another authctl\(holder.map { " (pid \($0))" } ?? "") to finish with the keystore…\n")
            }
        }
        return keystore
    }

    /// What opens a sealed keystore: `AUTHCTL_KEYSTORE_KEY_FILE`, `AUTHCTL_KEYSTORE_PASSPHRASE`,
    /// else a prompt for the passphrase when a person is at a terminal (never without one).
    /// The variables (and `AUTHCTL_KEYSTORE_KEYRING`) also say the keystore must be sealed.
    var keystoreKeys: KeystoreKeys {
        let io = self.io
        let keyFile = io.variable("AUTHCTL_KEYSTORE_KEY_FILE").flatMap { $0.isEmpty ? nil : $0 }
        let passphrase = io.variable("AUTHCTL_KEYSTORE_PASSPHRASE").flatMap { $0.isEmpty ? nil : $0 }
        let ask: (@Sendable (Int) throws -> String?)? =
            io.stdin.isTerminal && io.stderr.isTerminal
            ? { @Sendable attempt in
                if attempt > 1 { io.stderr.print("Wrong passphrase, try again.\n") }
                return try Wiring.askPassphrase("Keystore passphrase: ", io: io)
            } : nil
        // The keyring is asked only for a keystore sealed with it (libsecret is loaded then).
        // AUTHCTL_KEYSTORE_KEYRING (any value but empty or 0): the keystore is sealed with the
        // keyring, so a plaintext one is refused (the keyring being reachable says nothing).
        let keyringExpected = io.variable("AUTHCTL_KEYSTORE_KEYRING").map { !$0.isEmpty && $0 != "0" } ?? false
        return KeystoreKeys(
            keyFile: keyFile, passphrase: passphrase, askPassphrase: ask, keyring: SecretServiceKeyring(),
            keyringExpected: keyringExpected, memory: keyMemory, unlocked: KernelKeyring())
    }
}

extension Wiring {
    /// The token fast path's entry points (`AuthctlInvocation`, `IdentityChoice`): the same
    /// definitions, without a `Wiring`.
    static func keystore(_ options: Settings, io: AuthctlIO, keyMemory: KeystoreKeyMemory?, asking: Bool) -> FileKeystore {
        FastPathFiles(options: options, io: io, keyMemory: keyMemory).keystore(asking: asking)
    }

    static func configPath(_ options: Settings, io: AuthctlIO) -> String { FastPathFiles(options: options, io: io).configPath }
}

import Crypto
import _CryptoExtras

/// What this process can give to open a sealed keystore: a key file, a passphrase, a prompt
/// for one, or the system keyring. The command layer fills it from the environment
/// (`AUTHCTL_KEYSTORE_KEY_FILE`, `AUTHCTL_KEYSTORE_PASSPHRASE`) and the terminal; AuthCore
/// reads none of them itself.
public struct KeystoreKeys: Sendable {
    public var keyFile: String?
    public var passphrase: String?
    /// Asks for the passphrase on a terminal; nil without one (nothing prompts then). Called
    /// with the attempt (1, 2, 3: a wrong passphrase is asked again, as sudo does); returns
    /// what was typed (nil at the end of input) or throws to end the command (Ctrl-C).
    public var askPassphrase: (@Sendable (_ attempt: Int) throws -> String?)?
    /// Where an unlocked keystore's data key is kept for a while (`unlock`: the kernel
    /// keyring); nil: nowhere.
    public var unlocked: (any KeystoreKeyCache)?
    /// The Secret Service, when the process may use it.
    public var keyring: (any KeystoreKeyring)?
    /// Where the data key is kept once the keystore opened (`exec`); nil: nowhere.
    public var memory: KeystoreKeyMemory?

    /// The user said the keystore is sealed with the keyring (`AUTHCTL_KEYSTORE_KEYRING`):
    /// the keyring being reachable says nothing, so only this makes it a configured key.
    public var keyringExpected: Bool

    public init(
        keyFile: String? = nil, passphrase: String? = nil, askPassphrase: (@Sendable (_ attempt: Int) throws -> String?)? = nil,
        keyring: (any KeystoreKeyring)? = nil, keyringExpected: Bool = false, memory: KeystoreKeyMemory? = nil,
        unlocked: (any KeystoreKeyCache)? = nil
    ) {
        self.unlocked = unlocked
        self.keyFile = keyFile
        self.passphrase = passphrase
        self.askPassphrase = askPassphrase
        self.keyring = keyring
        self.memory = memory
        self.keyringExpected = keyringExpected
    }

    /// The variable that configures a key, when one does: then the keystore must be sealed
    /// (docs/keystore.md, "No silent downgrade"). A prompt on a terminal configures nothing.
    var configuredKey: String? {
        if let keyFile, !keyFile.isEmpty { return "AUTHCTL_KEYSTORE_KEY_FILE" }
        if let passphrase, !passphrase.isEmpty { return "AUTHCTL_KEYSTORE_PASSPHRASE" }
        return keyringExpected ? "AUTHCTL_KEYSTORE_KEYRING" : nil
    }

    /// The data key of a keystore sealed as `sealing` says, or the error that says how to
    /// give it (or that the one given is wrong).
    func dataKey(for sealing: KeystoreSealing, path: String) throws -> DataKey {
        if let remembered = memory?.key(for: sealing) { return remembered }
        // `unlock`: the key kept in the kernel keyring, when it is this sealing's (its check
        // value matches); a key given explicitly (a variable) is not needed then.
        if let unlocked, let bytes = unlocked.key(keystore: path), bytes.count == 32,
            Data(base64Encoded: sealing.keyCheck) == DataKey(bytes: bytes).checkValue
        {
            let key = DataKey(bytes: bytes)
            memory?.remember(key)
            return key
        }
        let key = try unwrappedDataKey(for: sealing, path: path)
        memory?.remember(key)
        return key
    }

    /// The key file to read: the one given (`AUTHCTL_KEYSTORE_KEY_FILE`), else the one the
    /// keystore names (checked like any key file, and it must open the data key).
    private func keyFilePath(for sealing: KeystoreSealing) -> String? {
        if let keyFile, !keyFile.isEmpty { return keyFile }
        return sealing.keyFile.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How many times a passphrase is asked on a terminal before the command fails (sudo's 3).
    public static let passphraseAttempts = 3

    private func unwrappedDataKey(for sealing: KeystoreSealing, path: String) throws -> DataKey {
        if sealing.keySource == .passphrase, passphrase == nil, let askPassphrase {
            return try askedDataKey(for: sealing, path: path, ask: askPassphrase)
        }
        let wrappingKey = try self.wrappingKey(for: sealing, path: path)
        guard let key = sealing.dataKey(wrappingKey: wrappingKey) else {
            let given =
                switch sealing.keySource {
                case .keyFile: "key file \(keyFilePath(for: sealing) ?? "")"
                case .passphrase: "passphrase"
                case .keyring: "key in the system keyring"
                }
            throw AuthError.keystore(
                "the \(given) does not open the keystore \(path): it is not the key it was sealed with. Nothing was changed")
        }
        return key
    }

    /// The passphrase asked on the terminal, up to `passphraseAttempts` times: a wrong one is
    /// asked again (the prompt says it was wrong), an empty one ends the command.
    private func askedDataKey(for sealing: KeystoreSealing, path: String, ask: @Sendable (Int) throws -> String?) throws -> DataKey {
        let (kdf, salt) = try Self.boundedKDF(sealing, path: path)
        if memory?.mayAsk == false { throw Self.noLongerOpens(path) }
        for attempt in 1...Self.passphraseAttempts {
            guard let typed = try ask(attempt), !typed.isEmpty else {
                throw AuthError.keystore(
                    "no passphrase was typed, and the keystore \(path) is sealed with one. Run the command again and type the keystore's passphrase at the prompt. Nothing was changed"
                )
            }
            if let key = sealing.dataKey(wrappingKey: try Self.derive(passphrase: typed, salt: salt, kdf: kdf)) { return key }
        }
        throw AuthError.keystore(
            "\(Self.passphraseAttempts) wrong passphrases: none opens the keystore \(path). Run the command again with the passphrase it was sealed with. Nothing was changed"
        )
    }

    private static func boundedKDF(_ sealing: KeystoreSealing, path: String) throws -> (KeystoreSealing.Scrypt, Data) {
        guard let kdf = sealing.kdf, let salt = kdf.checkedSalt else {
            throw AuthError.keystore(
                "the keystore \(path) asks for key derivation parameters out of bounds (scrypt N ≤ 2^20, r ≤ 32, p ≤ 16, 256 MiB). authctl will not derive with them: restore a backup"
            )
        }
        return (kdf, salt)
    }

    private static func noLongerOpens(_ path: String) -> AuthError {
        AuthError.keystore(
            "the keystore \(path) no longer opens with the key it opened with (it was sealed again meanwhile), and the passphrase is not asked while a command shares the terminal. Set AUTHCTL_KEYSTORE_PASSPHRASE, or start the command again"
        )
    }

    private func wrappingKey(for sealing: KeystoreSealing, path: String) throws -> SymmetricKey {
        switch sealing.keySource {
        case .keyFile:
            guard let keyFile = keyFilePath(for: sealing) else {
                throw AuthError.keystore(
                    "the keystore \(path) is sealed with a key file, and no key was given: set AUTHCTL_KEYSTORE_KEY_FILE to the key file's path"
                )
            }
            return try KeystoreKeyFile.read(keyFile)
        case .passphrase:
            let (kdf, salt) = try Self.boundedKDF(sealing, path: path)
            guard let passphrase else {
                throw AuthError.keystore(
                    "the keystore \(path) is sealed with a passphrase, and none was given: set AUTHCTL_KEYSTORE_PASSPHRASE, run the command on a terminal to be asked, or unlock the keystore for a while from one: \(command: .unlock)"
                )
            }
            return try Self.derive(passphrase: passphrase, salt: salt, kdf: kdf)
        case .keyring:
            guard let keyring else {
                throw AuthError.keystore(
                    "the keystore \(path) is sealed with a key in the system keyring, and the keyring cannot be used here (no Secret Service on the session bus, or libsecret is missing). Unlock your desktop session's keyring, or rekey it with a key file for this machine"
                )
            }
            guard let item = sealing.keyringItem, !item.isEmpty else {
                throw AuthError.keystore(
                    "the keystore \(path) is sealed with the keyring but names no keyring item: it is damaged. Restore a backup")
            }
            return try keyring.wrappingKey(item: item)
        }
    }

    /// scrypt (RFC 7914) of the passphrase with the file's parameters (already bounded).
    static func derive(passphrase: String, salt: Data, kdf: KeystoreSealing.Scrypt) throws -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: Data(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: kdf.n, blockSize: kdf.r, parallelism: kdf.p)
        } catch {
            throw AuthError.keystore("the passphrase could not be derived into a key (scrypt failed). Nothing was changed")
        }
    }
}

/// How to seal a keystore (`keystore seal`, `keystore rekey`).
public enum KeystoreSealTarget: Sendable {
    case keyFile(path: String)
    /// `cost`: scrypt's N is 2^cost, 15 by default (32 MiB); a file may hold 10 … 20, and
    /// reads with what it holds. Only tests ask for less, to spare the CPU.
    case passphrase(String, cost: Int = 15)
    case keyring(any KeystoreKeyring)

    /// A sealing of `dataKey` this way: the key file read, the passphrase derived with new
    /// parameters and salt, or a new key stored in the keyring.
    func sealing(of dataKey: DataKey, keystorePath: String, random: any RandomSource) throws -> KeystoreSealing {
        switch self {
        case .keyFile(let path):
            return try KeystoreSealing(
                dataKey: dataKey, wrappingKey: KeystoreKeyFile.read(path), keySource: .keyFile, kdf: nil, keyFile: Path.absolute(path))
        case .passphrase(let passphrase, let cost):
            try KeystorePassphraseRule.check(passphrase)
            let kdf = KeystoreSealing.Scrypt.standard(salt: Data(random.bytes(count: 16)), cost: cost)
            guard let salt = kdf.checkedSalt else { throw AuthError.internalError("the standard scrypt parameters are out of bounds") }
            let key = try KeystoreKeys.derive(passphrase: passphrase, salt: salt, kdf: kdf)
            return try KeystoreSealing(dataKey: dataKey, wrappingKey: key, keySource: .passphrase, kdf: kdf)
        case .keyring(let keyring):
            let key = SymmetricKey(data: Data(random.bytes(count: 32)))
            let item = random.base64URL(bytes: 16)
            try keyring.store(key, item: item, label: "authctl keystore key (\(keystorePath))")
            return try KeystoreSealing(dataKey: dataKey, wrappingKey: key, keySource: .keyring, kdf: nil, keyringItem: item)
        }
    }
}

/// What a new keystore passphrase must be (docs/keystore.md): a copy of the file alone lets
/// anyone try passphrases offline, as fast as their computers go. Only new passphrases are
/// judged (`keystore seal`, `rekey`); one a keystore was sealed with before still opens.
public enum KeystorePassphraseRule {
    public static let minimumLength = 12
    public static let minimumDistinct = 5

    /// The rule in words, for the prompt and the error.
    public static let description =
        "at least \(minimumLength) characters, at least \(minimumDistinct) of them different, and not a run such as 123456789012 or abcdefghijkl"

    /// What is wrong with `passphrase` as a new one; nil when it follows the rule. Never quotes it.
    public static func weakness(of passphrase: String) -> String? {
        let characters = Array(passphrase)
        if characters.count < minimumLength { return "it has \(characters.count) characters" }
        if Set(characters).count < minimumDistinct { return "it repeats too few different characters" }
        if isRun(characters) { return "it is a run of consecutive characters" }
        return nil
    }

    /// Refuses a weak new passphrase: an invalid argument (exit 2) that says the rule.
    static func check(_ passphrase: String) throws {
        guard let weakness = weakness(of: passphrase) else { return }
        throw AuthError.invalidArgument(
            "the new keystore passphrase is too weak (\(weakness)): whoever gets a copy of the keystore can try passphrases offline. Choose one with \(description). Nothing was changed"
        )
    }

    /// Each character one step after the one before (or each one before), in 0–9 (9 → 0) or
    /// a–z (z → a), letters of either case.
    private static func isRun(_ characters: [Character]) -> Bool {
        let steps = zip(characters, characters.dropFirst()).map { step(from: $0, to: $1) }
        guard let first = steps.first, let first, first != 0 else { return false }
        return steps.allSatisfy { $0 == first }
    }

    /// +1 or -1 when `b` follows or precedes `a` in its cycle; nil otherwise.
    private static func step(from a: Character, to b: Character) -> Int? {
        for cycle in ["0123456789", "abcdefghijklmnopqrstuvwxyz"] {
            let letters = cycle.map(String.init)
            guard let i = letters.firstIndex(of: a.lowercased()), let j = letters.firstIndex(of: b.lowercased()) else { continue }
            if j == (i + 1) % letters.count { return 1 }
            if i == (j + 1) % letters.count { return -1 }
            return nil
        }
        return nil
    }
}

import Synchronization

/// Where the account state lives. `FileKeystore` on disk; `InMemoryKeystore` in tests.
public protocol Keystore: Sendable {
    /// Reads the state without a lock (a reader never sees a half-written file).
    func read() throws -> AccountState
    /// Reads the current user alone (`users` holds it, or nothing): the hot path of
    /// `token` and `status`, which must not pay for every other user. Read-only: never
    /// write it back.
    func readCurrentUser() throws -> AccountState
    /// Reads the user `uid` alone (`users` holds it, or nothing), as `readCurrentUser` reads
    /// the current one: a rule's or `--user`'s user on the token hot path (docs/identities.md).
    func readUser(uid: String) throws -> AccountState
    /// Every user's profile, a sealed keystore left sealed: its tokens come back with
    /// `isSealed` and no secret. What shows or exports accounts needs no more, and no key.
    func readProfiles() throws -> AccountState
    /// Changes the state under an exclusive lock: re-read, change, write atomically. When
    /// `change` throws, or changes nothing, nothing is written.
    func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T
}

extension Keystore {
    public func readProfiles() throws -> AccountState { try read() }

    public func readCurrentUser() throws -> AccountState {
        let state = try read()
        return AccountState(currentUID: state.currentUID, users: state.currentUser.map { [$0] } ?? [])
    }

    public func readUser(uid: String) throws -> AccountState {
        let state = try read()
        return AccountState(currentUID: state.currentUID, users: state.users.filter { $0.uid == uid })
    }
}

/// The JSON keystore file of docs/keystore.md, plaintext (format 1) or sealed (format 2, opened
/// with what `keys` can give).
public struct FileKeystore: Keystore {
    public let path: String
    let random: any RandomSource
    let lockTimeout: TimeInterval
    /// Whose time the wait for the lock takes (Sources/AuthCore/Files/FileLock.swift).
    let clock: any Clock
    var keys: KeystoreKeys
    /// Called once when a write has waited a second for another process's lock, with that
    /// process's pid when it can be known (the command layer says so on a terminal).
    public var lockWaiting: (@Sendable (_ holder: Int32?) -> Void)?

    public init(
        path: String, random: any RandomSource, lockTimeout: TimeInterval = 60, clock: any Clock,
        keys: KeystoreKeys = KeystoreKeys()
    ) {
        self.path = path
        self.random = random
        self.lockTimeout = lockTimeout
        self.clock = clock
        self.keys = keys
    }

    public func read() throws -> AccountState {
        guard let data = try SafeFile.read(path, what: "the keystore") else { return AccountState() }
        let file = try KeystoreFile.decode(data, path: path)
        noteSealed(file)
        let state = try opened(file).file.state
        if file.sealing == nil { try refuseDowngrade(state) }
        return state
    }

    /// Every user's profile without opening a sealed keystore: its tokens come back with
    /// `isSealed` and no secret (`users list`, `status`). The same as `read` when plaintext.
    public func readProfiles() throws -> AccountState {
        guard let data = try SafeFile.read(path, what: "the keystore") else { return AccountState() }
        let file = try KeystoreFile.decode(data, path: path)
        noteSealed(file)
        return file.state
    }

    /// The current user's record alone is read out of the file (`KeystoreScan` reads it
    /// through a small window); a file the scan does not understand is read whole and decoded,
    /// which explains the problem. A sealed keystore's record is opened with `keys`.
    public func readCurrentUser() throws -> AccountState {
        try readCurrentUser(opening: true)
    }

    /// The current user without opening a sealed keystore (`status`).
    public func readCurrentUserProfile() throws -> AccountState {
        try readCurrentUser(opening: false)
    }

    /// The user `uid` alone, found by the same scan; a file the scan does not understand is
    /// read whole (`read`), which explains the problem.
    public func readUser(uid: String) throws -> AccountState {
        try readCurrentUser(opening: true, uid: uid)
    }

    private func readCurrentUser(opening: Bool, uid: String? = nil) throws -> AccountState {
        let record =
            try SafeFile.withOpened(path, what: "the keystore") { fd, info -> KeystoreFile.CurrentUserRecord? in
                if let record = KeystoreFile.decodeCurrentUser(file: fd, uid: uid) { return record }
                guard uid == nil else { return nil }
                let data = try SafeFile.readAll(fd, size: info.st_size, path: path, what: "the keystore", code: .keystoreError)
                return try KeystoreFile.decodeCurrentUser(data, path: path)
            } ?? nil
        if let uid, record == nil || record?.user == nil {
            // Not found by the scan (or not there): the whole file, which also explains damage.
            let state = try read()
            return AccountState(currentUID: state.currentUID, users: state.users.filter { $0.uid == uid })
        }
        guard let record else { return AccountState() }
        if record.sealing != nil { Self.noteFoundSealed(path) }
        guard var user = record.user else { return AccountState(currentUID: record.currentUID, users: []) }
        if opening, record.sealing == nil { try refuseDowngrade(AccountState(currentUID: record.currentUID, users: [user.domain])) }
        if opening, let sealing = record.sealing {
            let key = try keys.dataKey(for: sealing, path: path)
            do {
                user = try user.opening(with: key, version: record.version)
            } catch {
                throw damaged()
            }
        }
        return AccountState(currentUID: record.currentUID, users: [user.domain])
    }

    /// How the keystore is protected (`keystore status`), read without any key.
    public func sealStatus() throws -> KeystoreSealStatus {
        guard let data = try SafeFile.read(path, what: "the keystore") else {
            return KeystoreSealStatus(exists: false, protection: .plaintext)
        }
        let file = try KeystoreFile.decode(data, path: path)
        noteSealed(file)
        let protection: KeystoreSealStatus.Protection =
            switch file.sealing?.keySource {
            case nil: .plaintext
            case .keyFile: .keyFile
            case .passphrase: .passphrase
            case .keyring: .keyring
            }
        return KeystoreSealStatus(
            exists: true, protection: protection, version: file.version, users: file.users.count,
            pendingCredentials: file.pendingCredentials?.count ?? 0, keyFile: file.sealing?.keyFile)
    }

    public func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T {
        let lock = try await FileLock.acquire(for: path, timeout: lockTimeout, what: "the keystore", clock: clock, waiting: lockWaiting)
        defer { lock.release() }
        let data = try SafeFile.read(path, what: "the keystore")
        let original = try data.map { try KeystoreFile.decode($0, path: path) }
        noteSealed(original)
        let opened = try original.map(opened)
        var state = opened?.file.state ?? AccountState()
        if original?.sealing == nil { try refuseDowngrade(state) }
        let result = try await change(&state)
        if let original, let sealing = original.sealing, let key = opened?.key {
            // A sealed keystore is written again only when its state changed (each sealing
            // draws new nonces, so the bytes always would).
            guard state != opened?.file.state else { return result }
            try write(KeystoreFile(state).sealed(with: key, sealing: sealing))
            return result
        }
        let updated = KeystoreFile(state)
        guard updated != original else { return result }
        // Plaintext: never where this process found a sealed keystore (but by `keystore
        // unseal`), nor a token while a key is configured.
        if Self.foundSealed.withLock({ $0.contains(path) }) {
            throw AuthError.keystore(
                "the keystore \(path) was sealed when this process read it, and is in plaintext now: it may have been replaced by someone who wants your next tokens in plaintext. authctl did not write it. If you unsealed it yourself (\(command: .keystoreUnseal)), run the command again; if not, restore the sealed keystore and check who can write to it, or seal it again: \(command: .keystoreSeal)"
            )
        }
        try refuseDowngrade(state)
        try write(updated)
        return result
    }

    /// The keystores (by path) this process found sealed: one is written in plaintext only
    /// by `keystore unseal` (`reseal(nil)`), never by a write that finds it swapped.
    /// (An array, not a `Set`: a process knows one or two keystores, and a `Set`'s first use
    /// costs a sealed `token` a search of the protocol conformances, issue 24.)
    private static let foundSealed = Mutex<[String]>([])

    private static func noteFoundSealed(_ path: String) {
        foundSealed.withLock { if !$0.contains(path) { $0.append(path) } }
    }

    private func noteSealed(_ file: KeystoreFile?) {
        if file?.sealing != nil { Self.noteFoundSealed(path) }
    }

    /// With a key configured, a plaintext keystore holding a token (or about to) is refused:
    /// someone who could write the file but not read its key may have swapped it, to have
    /// the next sign-in's tokens written where they can read them.
    private func refuseDowngrade(_ state: AccountState) throws {
        guard let variable = keys.configuredKey, state.holdsSecrets else { return }
        throw AuthError.keystore(
            "the keystore \(path) is not sealed, but \(variable) is set: the keystore may have been replaced by someone who wants your next tokens in plaintext. authctl will not use it, nor write a token into it. If you sealed it, restore the sealed keystore and check who can write to it, or seal it again: \(command: .keystoreSeal); if you unsealed it yourself, unset \(variable)"
        )
    }

    /// Seals the keystore as `target` says under a new data key (`keystore seal`, `rekey`), or
    /// with nil writes it in plaintext (`keystore unseal`). Under the lock and atomic like every
    /// write: the old file opens with `keys` first, and a failure leaves it as it was.
    public func reseal(_ target: KeystoreSealTarget?) async throws {
        let lock = try await FileLock.acquire(for: path, timeout: lockTimeout, what: "the keystore", clock: clock, waiting: lockWaiting)
        defer { lock.release() }
        let data = try SafeFile.read(path, what: "the keystore")
        let original = try data.map { try KeystoreFile.decode($0, path: path) }
        let plaintext = try original.map(opened)?.file ?? KeystoreFile(AccountState())
        guard let target else {
            guard let sealing = original?.sealing else { return }
            try write(plaintext)
            Self.foundSealed.withLock { $0.removeAll { $0 == path } }
            if let item = sealing.keyringItem { keys.keyring?.remove(item: item) }
            return
        }
        let key = DataKey.random()
        let sealing = try target.sealing(of: key, keystorePath: path, random: random)
        do {
            try write(plaintext.sealed(with: key, sealing: sealing))
            Self.noteFoundSealed(path)
        } catch {
            if let item = sealing.keyringItem, case .keyring(let keyring) = target { keyring.remove(item: item) }
            throw error
        }
        // The replaced sealing's keyring item opens nothing any more.
        if let item = original?.sealing?.keyringItem, item != sealing.keyringItem { keys.keyring?.remove(item: item) }
    }

    /// Opens the sealed keystore with the key this process can give (a prompt on a terminal)
    /// and keeps its data key in `keys.unlocked` for `seconds` (`unlock`): commands that
    /// cannot answer a prompt open it meanwhile. Nothing in the file changes.
    public func unlock(for seconds: Int) throws {
        let file = try SafeFile.read(path, what: "the keystore").map { try KeystoreFile.decode($0, path: path) }
        guard let file, file.sealing != nil else {
            throw AuthError.invalidArgument(
                "the keystore \(path) is not sealed: there is nothing to unlock. Seal it with: \(command: .keystoreSeal)")
        }
        guard let unlocked = keys.unlocked else {
            throw AuthError.keystore("no place to keep an unlocked key is available here. Give the key at every command instead")
        }
        // The key is given anew (the one kept is not asked), and every sealed value must
        // open with it: a damaged keystore is reported now, not kept unlocked.
        var giving = self
        giving.keys.unlocked = nil
        guard let key = try giving.opened(file).key else { throw damaged() }
        try unlocked.store(key.bytes, keystore: path, seconds: seconds)
    }

    /// Forgets the key `unlock` kept (`lock`); whether there was one.
    public func lock() -> Bool { keys.unlocked?.remove(keystore: path) ?? false }

    /// The file opened with its data key (the key nil when it is plaintext).
    private func opened(_ file: KeystoreFile) throws -> (file: KeystoreFile, key: DataKey?) {
        guard let sealing = file.sealing else { return (file, nil) }
        let key = try keys.dataKey(for: sealing, path: path)
        do {
            return (try file.opened(with: key), key)
        } catch {
            throw damaged()
        }
    }

    private func damaged() -> AuthError {
        AuthError.keystore(
            "the keystore \(path) is damaged: a sealed value does not open with its key (changed, or moved from another record). authctl will not change it: restore a backup, or move it away and sign in again"
        )
    }

    private func write(_ file: KeystoreFile) throws {
        // The lock is held: no writer is at work, so any temporary file is a dead one's.
        try SafeFile.removeStaleTemporaries(of: path, what: "the keystore")
        try SafeFile.writeAtomically(try file.encodedForWriting(path: path), to: path, what: "the keystore", random: random)
    }
}

/// How a keystore is protected at rest (`keystore status`).
public struct KeystoreSealStatus: Sendable, Equatable {
    public enum Protection: String, Sendable, Equatable {
        case plaintext, keyFile, passphrase, keyring
    }

    public var exists: Bool
    public var protection: Protection
    public var version = KeystoreFile.plaintextVersion
    public var users = 0
    public var pendingCredentials = 0
    /// The key file the keystore names (sealed with a key file by this release), never the key.
    public var keyFile: String?
}

extension AccountState {
    /// Whether anything here is a secret a sealed keystore would seal: a session's tokens,
    /// a resource grant's, a Firebase session, a pending credential, a registration token.
    fileprivate var holdsSecrets: Bool {
        !pendingCredentials.isEmpty || !registrationTokens.isEmpty || !registeredClientSecrets.isEmpty
            || users.contains { user in
                user.backend?.session != nil || user.providerData.contains { $0.tokens != nil }
                    || user.resourceGrants.contains { $0.tokens != nil }
            }
    }
}

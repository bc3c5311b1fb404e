#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the account state lives. `FileKeystore` on disk; `InMemoryKeystore` in tests.
public protocol Keystore: Sendable {
    /// Reads the state without a lock (a reader never sees a half-written file).
    func read() throws -> AccountState
    /// Reads the current user alone (`users` holds it, or nothing): the hot path of
    /// `token` and `status`, which must not pay for every other user. Read-only: never
    /// write it back.
    func readCurrentUser() throws -> AccountState
    /// Changes the state under an exclusive lock: re-read, change, write atomically. When
    /// `change` throws, or changes nothing, nothing is written.
    func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T
}

extension Keystore {
    public func readCurrentUser() throws -> AccountState {
        let state = try read()
        return AccountState(currentUID: state.currentUID, users: state.currentUser.map { [$0] } ?? [])
    }
}

/// The JSON keystore file of SPEC §7.
public struct FileKeystore: Keystore {
    public let path: String
    let random: any RandomSource
    let lockTimeout: TimeInterval

    public init(path: String, random: any RandomSource, lockTimeout: TimeInterval = 60) {
        self.path = path
        self.random = random
        self.lockTimeout = lockTimeout
    }

    public func read() throws -> AccountState {
        guard let data = try SafeFile.read(path, what: "the keystore") else { return AccountState() }
        return try KeystoreFile.decode(data, path: path).state
    }

    /// The current user's record alone is read out of the file (`KeystoreScan` reads it
    /// through a small window); a file the scan does not understand is read whole and decoded,
    /// which explains the problem.
    public func readCurrentUser() throws -> AccountState {
        try SafeFile.withOpened(path, what: "the keystore") { fd, info in
            if let state = KeystoreFile.decodeCurrentUser(file: fd) { return state }
            let data = try SafeFile.readAll(fd, size: info.st_size, path: path, what: "the keystore", code: .keystoreError)
            return try KeystoreFile.decodeCurrentUser(data, path: path)
        } ?? AccountState()
    }

    public func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T {
        let lock = try await FileLock.acquire(for: path, timeout: lockTimeout, what: "the keystore")
        defer { lock.release() }
        let data = try SafeFile.read(path, what: "the keystore")
        let original = try data.map { try KeystoreFile.decode($0, path: path) }
        var state = original?.state ?? AccountState()
        let result = try await change(&state)
        let updated = KeystoreFile(state)
        if updated != original {
            // The lock is held: no writer is at work, so any temporary file is a dead one's.
            try SafeFile.removeStaleTemporaries(of: path, what: "the keystore")
            try SafeFile.writeAtomically(try updated.encodedForWriting(path: path), to: path, what: "the keystore", random: random)
        }
        return result
    }
}

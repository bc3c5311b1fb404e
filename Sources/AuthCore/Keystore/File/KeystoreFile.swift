/// The on-disk keystore (docs/keystore.md, schema in docs/keystore.schema.json).
/// A private type separate from the domain's `AccountState`, built of its own records
/// (`KeystoreRecord`), so that the format changes by version only, never because the
/// domain did.
struct KeystoreFile: Codable, Equatable {
    /// The newest format this build reads and writes: 1 is a plaintext keystore, 3 a sealed
    /// one (`sealing` present, every secret an AEAD ciphertext bound to its record and to the
    /// readable fields beside it). 2 is a sealed keystore of an earlier build (bound to its
    /// place only): read, and written as 3 at its next change. Sealing migrates 1 → 3,
    /// `keystore unseal` 2 or 3 → 1; newer versions are refused.
    static let currentVersion = 3
    static let plaintextVersion = 1
    static let sealedVersion = 3
    static let firstSealedVersion = 2

    /// Whether a file of `version` is sealed (2 and 3).
    static func isSealed(version: Int) -> Bool { version >= firstSealedVersion }

    var version: Int
    var currentUid: String?
    var users: [KeystoreRecord.User]
    /// Absent when there are none (files stay as older builds wrote them).
    var pendingCredentials: [KeystoreRecord.PendingCredential]?
    /// Version 2: how the data key is wrapped (`KeystoreSealing`).
    var sealing: KeystoreSealing?
    /// The registration access tokens of registered clients; absent when there are none.
    var registrations: [KeystoreRecord.Registration]?

    /// A plaintext keystore (version 1) of `state`.
    init(_ state: AccountState) {
        version = Self.plaintextVersion
        currentUid = state.currentUID
        // The current user's record first: the token hot path stops reading there (KeystoreScan).
        let current = state.users.filter { $0.uid == state.currentUID }
        users = (current + state.users.filter { $0.uid != state.currentUID }).map(KeystoreRecord.User.init)
        pendingCredentials = state.pendingCredentials.isEmpty ? nil : state.pendingCredentials.map(KeystoreRecord.PendingCredential.init)
        let registered = Set(state.registrationTokens.keys).union(state.registeredClientSecrets.keys).sorted()
        registrations =
            registered.isEmpty
            ? nil
            : registered.map {
                KeystoreRecord.Registration(
                    providerId: $0, registrationAccessToken: state.registrationTokens[$0],
                    registrationClientUri: state.registrationClientURIs[$0], clientSecret: state.registeredClientSecrets[$0]?.secret,
                    clientSecretIssuer: state.registeredClientSecrets[$0]?.issuer,
                    clientSecretClientId: state.registeredClientSecrets[$0]?.clientID)
            }
    }

    /// This keystore with every secret sealed under `key` (version 2), wrapped as `sealing` says.
    func sealed(with key: DataKey, sealing: KeystoreSealing) throws -> KeystoreFile {
        var file = self
        file.version = Self.sealedVersion
        file.sealing = sealing
        file.users = try users.map { try $0.sealing(with: key) }
        file.pendingCredentials = try pendingCredentials?.map { try $0.sealing(with: key) }
        file.registrations = try registrations?.map { try $0.sealing(with: key) }
        return file
    }

    /// This keystore with every secret opened (a plaintext version 1); throws
    /// `SealedValueRefused` when a value does not open.
    func opened(with key: DataKey) throws -> KeystoreFile {
        var file = self
        file.version = Self.plaintextVersion
        file.sealing = nil
        file.users = try users.map { try $0.opening(with: key, version: version) }
        file.pendingCredentials = try pendingCredentials?.map { try $0.opening(with: key, version: version) }
        file.registrations = try registrations?.map { try $0.opening(with: key) }
        return file
    }

    /// The state; from a sealed file not opened, its profiles with tokens marked sealed.
    var state: AccountState {
        var state = AccountState(
            currentUID: currentUid, users: users.map(\.domain), pendingCredentials: (pendingCredentials ?? []).map(\.domain))
        // A sealed token not opened is not given (nothing without the key).
        for registration in registrations ?? [] {
            if let token = registration.registrationAccessToken { state.registrationTokens[registration.providerId] = token }
            if let uri = registration.registrationClientUri { state.registrationClientURIs[registration.providerId] = uri }
            if let secret = registration.registeredClientSecret { state.registeredClientSecrets[registration.providerId] = secret }
        }
        return state
    }

    static func decode(_ data: Data, path: String) throws -> KeystoreFile {
        try withReadableErrors(path: path) { try decoder.decode(KeystoreFile.self, from: data) }
    }

    /// The current user's record as the file holds it (sealed or not), and the file's sealing.
    struct CurrentUserRecord {
        var version = KeystoreFile.plaintextVersion
        var currentUID: String?
        var user: KeystoreRecord.User?
        var sealing: KeystoreSealing?

        /// The current user as read, not opened (a sealed one's tokens marked sealed).
        var state: AccountState { AccountState(currentUID: currentUID, users: user.map { [$0.domain] } ?? []) }
    }

    /// The current user alone, for the commands that answer from the session (`token`,
    /// `status`): one pass over the file, the version checked as for a full read, and no
    /// other user decoded (their records are skipped, not built).
    static func decodeCurrentUser(_ data: Data, path: String) throws -> CurrentUserRecord {
        // The current user's record found by a scan that skips the others, then decoded;
        // a file the scan does not understand goes through the decoder, which explains.
        if let found = KeystoreScan.currentUser(in: data), (1...currentVersion).contains(found.version), UIDCheck.holds(found.currentUID) {
            let sealing = found.sealing.flatMap { readSealing(data.slice($0)) }
            if (sealing != nil) == isSealed(version: found.version) {
                guard let range = found.user else {
                    return CurrentUserRecord(version: found.version, currentUID: found.currentUID, sealing: sealing)
                }
                if let user = readUser(data.slice(range)),
                    user.isShaped(sealed: sealing != nil)
                {
                    return CurrentUserRecord(version: found.version, currentUID: found.currentUID, user: user, sealing: sealing)
                }
            }
        }
        return try withReadableErrors(path: path) {
            let session = try decoder.decode(CurrentUserView.self, from: data)
            return CurrentUserRecord(version: session.version, currentUID: session.currentUid, user: session.user, sealing: session.sealing)
        }
    }

    /// `decodeCurrentUser` over the keystore file open at `fd`, scanned through a small
    /// window and with only the current user's record read out: a large keystore is never
    /// in memory whole. Nil when the scan does not understand the file or a read fails; the
    /// caller then reads the file whole and `decodeCurrentUser` explains what is wrong.
    /// `uid`: that user's record instead of the current user's (nil when the scan cannot tell).
    static func decodeCurrentUser(file fd: Int32, uid: String? = nil) -> CurrentUserRecord? {
        guard let found = KeystoreScan.currentUser(inFile: fd, uid: uid), (1...currentVersion).contains(found.version) else { return nil }
        var sealing: KeystoreSealing?
        if let range = found.sealing {
            guard let slice = SafeFile.read(fd, range: range), let decoded = readSealing(slice)
            else { return nil }
            sealing = decoded
        }
        guard (sealing != nil) == isSealed(version: found.version), UIDCheck.holds(found.currentUID) else { return nil }
        guard let range = found.user else {
            return CurrentUserRecord(version: found.version, currentUID: found.currentUID, sealing: sealing)
        }
        // The record must still be the current user's (a file changed in place under us is
        // not), its tokens where the file's kind keeps them (else the full read explains).
        guard let slice = SafeFile.read(fd, range: range), let user = readUser(slice),
            user.uid == (uid ?? found.currentUID), user.isShaped(sealed: sealing != nil)
        else { return nil }
        return CurrentUserRecord(version: found.version, currentUID: found.currentUID, user: user, sealing: sealing)
    }

    /// The current user's record from the bytes the scan found: by `KeystoreRecordReader`
    /// (no `Codable`, issue 24), and by `JSONDecoder` when the reader does not take them —
    /// which then gives the same record, or refuses. Nil when neither reads it.
    static func readUser(_ bytes: Data) -> KeystoreRecord.User? {
        KeystoreRecord.User.fastDecoded(bytes) ?? (try? decoder.decode(KeystoreRecord.User.self, from: bytes))
    }

    /// The top-level `sealing` object, read the same way.
    static func readSealing(_ bytes: Data) -> KeystoreSealing? {
        KeystoreSealing.fastDecoded(bytes) ?? (try? decoder.decode(KeystoreSealing.self, from: bytes))
    }

    /// The version check both reads share: a file without `version` is not a keystore; a
    /// newer version is refused (never rewritten).
    fileprivate enum VersionCheck: Error {
        case missing
        case newer(Int)
        /// `sealing` present in version 1, or absent in a sealed version.
        case sealingMismatch
        /// A token (or a pending credential's claims) in plaintext in a sealed keystore.
        case unsealedSecret
        /// A sealed value in a plaintext keystore.
        case sealedInPlaintext

        static func check(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
            guard let version = try? container.decode(Int.self, forKey: .version) else { throw missing }
            guard version >= 1, version <= currentVersion else { throw newer(version) }
            guard container.contains(.sealing) == isSealed(version: version) else { throw sealingMismatch }
            return version
        }

        /// Every secret of `users` and `pending` where a file of `version` keeps it.
        static func checkShape(version: Int, users: [KeystoreRecord.User], pending: [KeystoreRecord.PendingCredential]) throws {
            let sealed = isSealed(version: version)
            guard users.allSatisfy({ $0.isShaped(sealed: sealed) }), pending.allSatisfy({ $0.isShaped(sealed: sealed) }) else {
                throw sealed ? unsealedSecret : sealedInPlaintext
            }
        }
    }

    /// A uid in the file that authctl never writes (`UIDSyntax`): shell syntax or a terminal
    /// escape planted in the file is damage, not a user.
    fileprivate enum UIDCheck: Error {
        case invalid

        static func holds(_ uid: String?) -> Bool { uid.map { UIDSyntax.isUID($0) } ?? true }

        static func check(_ uids: [String?]) throws {
            guard uids.allSatisfy(holds) else { throw invalid }
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, currentUid, users, pendingCredentials, sealing, registrations
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try VersionCheck.check(container)
        currentUid = try container.decodeIfPresent(String.self, forKey: .currentUid)
        users = try container.decode([KeystoreRecord.User].self, forKey: .users)
        pendingCredentials = try container.decodeIfPresent([KeystoreRecord.PendingCredential].self, forKey: .pendingCredentials)
        sealing = try container.decodeIfPresent(KeystoreSealing.self, forKey: .sealing)
        registrations = try container.decodeIfPresent([KeystoreRecord.Registration].self, forKey: .registrations)
        // A Firebase pending credential names no conflicting user (an empty uid).
        let conflicting = (pendingCredentials ?? []).map(\.conflictingUID).filter { !$0.isEmpty }
        try UIDCheck.check([currentUid] + users.map(\.uid) + conflicting)
        try VersionCheck.checkShape(version: version, users: users, pending: pendingCredentials ?? [])
        guard (registrations ?? []).allSatisfy({ $0.isShaped(sealed: Self.isSealed(version: version)) }) else {
            throw Self.isSealed(version: version) ? VersionCheck.unsealedSecret : VersionCheck.sealedInPlaintext
        }
    }

    /// Maps decoding failures to the keystore errors of docs/keystore.md.
    static func withReadableErrors<T>(path: String, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch VersionCheck.missing {
            throw AuthError.keystore(
                "the keystore \(path) has no version number, so it is not an authctl keystore or it is corrupt. authctl will not change it: move it away and sign in again"
            )
        } catch VersionCheck.sealingMismatch {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (its version and its sealing do not agree). authctl will not change it: restore a backup, or move it away and sign in again"
            )
        } catch VersionCheck.unsealedSecret {
            throw AuthError.keystore(
                "the keystore \(path) is sealed, but it holds a token (or a pending credential's secret) that is not: someone who could write the file, but not read its key, may have put it there. authctl will not use the keystore nor change it: restore a backup, or move it away and sign in again"
            )
        } catch VersionCheck.sealedInPlaintext {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (a sealed value in a plaintext keystore). authctl will not change it: restore a backup, or move it away and sign in again"
            )
        } catch VersionCheck.newer(let version) {
            throw AuthError.keystore(
                "the keystore \(path) has format version \(version), written by a newer authctl. Upgrade authctl; this one will not change the file"
            )
        } catch UIDCheck.invalid {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (it holds a uid with characters or a length authctl never writes: damage, or shell syntax or a terminal escape someone put in the file). authctl will not change it: restore a backup, or move it away (\(moveAside: path)) and sign in again"
            )
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (not a JSON object). authctl will not change it: move it away (\(moveAside: path)) and sign in again, or restore a backup"
            )
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (not a JSON object). authctl will not change it: move it away (\(moveAside: path)) and sign in again, or restore a backup"
            )
        } catch {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (its content does not match format version \(currentVersion)). authctl will not change it: move it away (\(moveAside: path)) and sign in again"
            )
        }
    }

    func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// The bytes of this keystore, checked to read back before they replace the file: both
    /// reads (the full one and the current user's) must accept them and find the same
    /// users. A value that encodes but does not decode (a date out of range, from a number a
    /// provider sent) would otherwise leave a keystore no command can read.
    func encodedForWriting(path: String) throws -> Data {
        let refused = AuthError.keystore(
            "authctl did not write the keystore \(path): what it was about to write would not read back (a value it cannot store, such as an out-of-range date). The keystore was left as it was; run the command again, and report it if it repeats"
        )
        guard let data = try? encoded(), let decoded = try? Self.decoder.decode(KeystoreFile.self, from: data),
            decoded.currentUid == currentUid, decoded.users.map(\.uid) == users.map(\.uid),
            (decoded.pendingCredentials ?? []).count == (pendingCredentials ?? []).count,
            decoded.registrations == registrations,
            decoded.sealing == sealing,
            let session = try? Self.decodeCurrentUser(data, path: path), session.currentUID == currentUid
        else { throw refused }
        return data
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The sealed secrets' plaintext: compact, sorted.
    static let secretsEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// `{version, currentUid, users}` with only the current user decoded.
private struct CurrentUserView: Decodable {
    var version = KeystoreFile.plaintextVersion
    var currentUid: String?
    var user: KeystoreRecord.User?
    var sealing: KeystoreSealing?

    private enum UserKeys: String, CodingKey { case uid }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: KeystoreFile.CodingKeys.self)
        version = try KeystoreFile.VersionCheck.check(container)
        sealing = try container.decodeIfPresent(KeystoreSealing.self, forKey: .sealing)
        currentUid = try container.decodeIfPresent(String.self, forKey: .currentUid)
        try KeystoreFile.UIDCheck.check([currentUid])
        guard let currentUid else { return }
        var users = try container.nestedUnkeyedContainer(forKey: .users)
        while !users.isAtEnd {
            let element = try users.superDecoder()
            if try element.container(keyedBy: UserKeys.self).decode(String.self, forKey: .uid) == currentUid {
                let found = try KeystoreRecord.User(from: element)
                try KeystoreFile.VersionCheck.checkShape(version: version, users: [found], pending: [])
                user = found
                return
            }
        }
    }
}

extension Data {
    /// The bytes at `range`, counted from the start of this data.
    fileprivate func slice(_ range: Range<Int>) -> Data {
        self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The on-disk keystore (docs/keystore.md, schema in docs/keystore.schema.json).
/// A private type separate from the domain's `AccountState`, built of its own records
/// (`KeystoreRecord`), so that the format changes by version only, never because the
/// domain did.
struct KeystoreFile: Codable, Equatable {
    /// The format this build writes. Older versions are migrated on write; newer ones refused.
    static let currentVersion = 1

    var version: Int
    var currentUid: String?
    var users: [KeystoreRecord.User]
    /// Absent when there are none (files stay as older builds wrote them).
    var pendingCredentials: [KeystoreRecord.PendingCredential]?

    init(_ state: AccountState) {
        version = Self.currentVersion
        currentUid = state.currentUID
        users = state.users.map(KeystoreRecord.User.init)
        pendingCredentials = state.pendingCredentials.isEmpty ? nil : state.pendingCredentials.map(KeystoreRecord.PendingCredential.init)
    }

    var state: AccountState {
        AccountState(currentUID: currentUid, users: users.map(\.domain), pendingCredentials: (pendingCredentials ?? []).map(\.domain))
    }

    static func decode(_ data: Data, path: String) throws -> KeystoreFile {
        try withReadableErrors(path: path) { try decoder.decode(KeystoreFile.self, from: data) }
    }

    /// The current user alone, for the commands that answer from the session (`token`,
    /// `status`): one pass over the file, the version checked as for a full read, and no
    /// other user decoded (their records are skipped, not built).
    static func decodeCurrentUser(_ data: Data, path: String) throws -> AccountState {
        // The current user's record found by a scan that skips the others, then decoded;
        // a file the scan does not understand goes through the decoder, which explains.
        if let found = KeystoreScan.currentUser(in: data), (1...currentVersion).contains(found.version) {
            guard let range = found.user else { return AccountState(currentUID: found.currentUID, users: []) }
            let slice = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
            if let user = try? decoder.decode(KeystoreRecord.User.self, from: slice) {
                return AccountState(currentUID: found.currentUID, users: [user.domain])
            }
        }
        return try withReadableErrors(path: path) {
            let session = try decoder.decode(CurrentUserView.self, from: data)
            return AccountState(currentUID: session.currentUid, users: session.user.map { [$0.domain] } ?? [])
        }
    }

    /// `decodeCurrentUser` over the keystore file open at `fd`, scanned through a small
    /// window and with only the current user's record read out: a large keystore is never
    /// in memory whole. Nil when the scan does not understand the file or a read fails; the
    /// caller then reads the file whole and `decodeCurrentUser` explains what is wrong.
    static func decodeCurrentUser(file fd: Int32) -> AccountState? {
        guard let found = KeystoreScan.currentUser(inFile: fd), (1...currentVersion).contains(found.version) else { return nil }
        guard let range = found.user else { return AccountState(currentUID: found.currentUID, users: []) }
        // The record must still be the current user's (a file changed in place under us is not).
        guard let slice = SafeFile.read(fd, range: range), let user = try? decoder.decode(KeystoreRecord.User.self, from: slice),
            user.uid == found.currentUID
        else { return nil }
        return AccountState(currentUID: found.currentUID, users: [user.domain])
    }

    /// The version check both reads share: a file without `version` is not a keystore; a
    /// newer version is refused (never rewritten).
    fileprivate enum VersionCheck: Error {
        case missing
        case newer(Int)

        static func check(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
            guard let version = try? container.decode(Int.self, forKey: .version) else { throw missing }
            guard version >= 1, version <= currentVersion else { throw newer(version) }
            return version
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, currentUid, users, pendingCredentials
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try VersionCheck.check(container)
        currentUid = try container.decodeIfPresent(String.self, forKey: .currentUid)
        users = try container.decode([KeystoreRecord.User].self, forKey: .users)
        pendingCredentials = try container.decodeIfPresent([KeystoreRecord.PendingCredential].self, forKey: .pendingCredentials)
    }

    /// Maps decoding failures to the keystore errors of docs/keystore.md.
    static func withReadableErrors<T>(path: String, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch VersionCheck.missing {
            throw AuthError.keystore(
                "the keystore \(path) has no version number, so it is not an authctl keystore or it is corrupt. authctl will not change it: move it away and sign in again"
            )
        } catch VersionCheck.newer(let version) {
            throw AuthError.keystore(
                "the keystore \(path) has format version \(version), written by a newer authctl. Upgrade authctl; this one will not change the file"
            )
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (not a JSON object). authctl will not change it: move it away (mv '\(path)' '\(path).bad') and sign in again, or restore a backup"
            )
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (not a JSON object). authctl will not change it: move it away (mv '\(path)' '\(path).bad') and sign in again, or restore a backup"
            )
        } catch {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (its content does not match format version \(currentVersion)). authctl will not change it: move it away (mv '\(path)' '\(path).bad') and sign in again"
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
            let session = try? Self.decodeCurrentUser(data, path: path), session.currentUID == currentUid
        else { throw refused }
        return data
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
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
    var currentUid: String?
    var user: KeystoreRecord.User?

    private enum UserKeys: String, CodingKey { case uid }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: KeystoreFile.CodingKeys.self)
        _ = try KeystoreFile.VersionCheck.check(container)
        currentUid = try container.decodeIfPresent(String.self, forKey: .currentUid)
        guard let currentUid else { return }
        var users = try container.nestedUnkeyedContainer(forKey: .users)
        while !users.isAtEnd {
            let element = try users.superDecoder()
            if try element.container(keyedBy: UserKeys.self).decode(String.self, forKey: .uid) == currentUid {
                user = try KeystoreRecord.User(from: element)
                return
            }
        }
    }
}

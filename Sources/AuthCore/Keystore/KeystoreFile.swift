import Foundation

/// The on-disk keystore (docs/keystore.md, schema in docs/keystore.schema.json).
/// A private type separate from the domain's `AccountState`, so that the format can
/// change by version without the domain noticing.
struct KeystoreFile: Codable, Equatable {
    /// The format this build writes. Older versions are migrated on write; newer ones refused.
    static let currentVersion = 1

    var version: Int
    var currentUid: String?
    var users: [User]
    /// Absent when there are none (files stay as older builds wrote them).
    var pendingCredentials: [PendingCredential]?

    init(_ state: AccountState) {
        version = Self.currentVersion
        currentUid = state.currentUID
        users = state.users
        pendingCredentials = state.pendingCredentials.isEmpty ? nil : state.pendingCredentials
    }

    var state: AccountState { AccountState(currentUID: currentUid, users: users, pendingCredentials: pendingCredentials ?? []) }

    static func decode(_ data: Data, path: String) throws -> KeystoreFile {
        guard let object = JSONValue.object(from: data) else {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (not a JSON object). authctl will not change it: move it away (mv '\(path)' '\(path).bad') and sign in again, or restore a backup"
            )
        }
        guard case .number(let version) = object["version"] else {
            throw AuthError.keystore(
                "the keystore \(path) has no version number, so it is not an authctl keystore or it is corrupt. authctl will not change it: move it away and sign in again"
            )
        }
        guard Int(version) <= currentVersion, version >= 1 else {
            throw AuthError.keystore(
                "the keystore \(path) has format version \(Int(version)), written by a newer authctl. Upgrade authctl; this one will not change the file"
            )
        }
        do {
            return try decoder.decode(KeystoreFile.self, from: data)
        } catch {
            throw AuthError.keystore(
                "the keystore \(path) is corrupt (its content does not match format version \(Int(version))). authctl will not change it: move it away (mv '\(path)' '\(path).bad') and sign in again"
            )
        }
    }

    func encoded() throws -> Data {
        try Self.encoder.encode(self)
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

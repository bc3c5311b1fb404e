/// `users export` and `users import` (docs/accounts.md): the account records of a
/// keystore, without any token. An export is a list of who exists and which identities
/// each has; the session (tokens) never leaves the keystore.
public enum UserExport {
    public enum Format: String, Sendable, CaseIterable {
        /// authctl's own format: round-trips losslessly through `users import`.
        case authctl
        /// The `users[]` / `providerUserInfo[]` JSON of Firebase's `auth:export`.
        case firebase
    }

    /// The authctl export document: its users are the keystore's own records (tokens removed).
    struct Document: Codable {
        static let formatName = "authctl-users"
        var format: String
        var version: Int
        var users: [KeystoreRecord.User]
    }

    /// The users as a document of the given format, without any secret or pointer to one: no
    /// identity's tokens, no Firebase session, no workload's credential source (the file or
    /// variable its authentication is read from, which belongs to the machine that signed in),
    /// and none of the pending credentials.
    public static func export(_ state: AccountState, format: Format) throws -> Data {
        let users = state.usersByCreation.map(withoutTokens)
        switch format {
        case .authctl:
            return try KeystoreFile.encoder.encode(
                Document(format: Document.formatName, version: 1, users: users.map(exportRecord)))
        case .firebase:
            return try KeystoreFile.encoder.encode(JSONValue.object(["users": .array(users.map(firebaseUser))]))
        }
    }

    /// A user as Firebase's `auth:export` writes one: times as strings of epoch
    /// milliseconds, absent fields left out.
    static func firebaseUser(_ user: User) -> JSONValue {
        var fields: [String: JSONValue] = [
            "localId": .string(user.uid),
            "emailVerified": .bool(user.emailVerified),
            "createdAt": .string(milliseconds(user.createdAt)),
            "lastSignedInAt": .string(milliseconds(user.lastSignInAt)),
            "providerUserInfo": .array(
                user.providerData.map { identity in
                    var info: [String: JSONValue] = [
                        "providerId": .string(identity.providerID), "rawId": .string(identity.federatedID),
                    ]
                    info["email"] = identity.profile.email.map(JSONValue.string)
                    info["displayName"] = identity.profile.displayName.map(JSONValue.string)
                    info["photoUrl"] = identity.profile.photoURL.map(JSONValue.string)
                    return .object(info)
                }),
        ]
        fields["email"] = user.email.map(JSONValue.string)
        fields["displayName"] = user.displayName.map(JSONValue.string)
        fields["photoUrl"] = user.photoURL.map(JSONValue.string)
        return .object(fields)
    }

    /// Milliseconds since 1970; a date beyond Int64's range (a damaged keystore) is clamped, never a trap.
    static func milliseconds(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return "0" }
        return String(Int64(max(min(milliseconds, 9e18), -9e18)))
    }

    /// The user signed out: no identity's tokens, no Firebase session.
    static func withoutTokens(_ user: User) -> User {
        var user = user
        for index in user.providerData.indices { user.providerData[index].tokens = nil }
        user.backend?.session = nil
        return user
    }

    /// What an import makes of a user: signed out, and a workload without its client record
    /// (which names where its credential is read).
    static func importedForm(_ user: User) -> User {
        var user = withoutTokens(user)
        for index in user.providerData.indices { user.providerData[index].workload = nil }
        return user
    }

    /// A user's record as an export holds it: a workload's client without its credential source.
    static func exportRecord(_ user: User) -> KeystoreRecord.User {
        var record = KeystoreRecord.User(user)
        for index in record.providerData.indices {
            guard let workload = record.providerData[index].workload else { continue }
            record.providerData[index].workload = KeystoreRecord.Workload(
                clientId: workload.clientId, tenant: workload.tenant, scopes: workload.scopes,
                federatedAudience: workload.federatedAudience, assertionAlgorithm: workload.assertionAlgorithm)
        }
        return record
    }

    /// The members of a workload record that say where its credential is read.
    static let credentialSourceMembers = [
        "clientSecretEnv", "clientSecretFile", "certificateFile", "federatedTokenFile", "federatedTokenEnv", "federatedTokenSource",
    ]

    /// Refuses a user of an export document that carries what no export holds: tokens (sealed
    /// or not), a Firebase session, or a workload's credential source — a file planted by
    /// someone else must not put tokens in the keystore or point authctl at a file or variable
    /// the user never named.
    static func checkCarriesNoSecret(_ user: JSONValue, label: String) throws {
        func refuse(_ what: String) -> AuthError {
            .invalidArgument(
                "\(label) carries \(what), which no export holds; nothing was imported. Give a file written by: \(command: .usersExport)")
        }
        guard let user = user.objectValue else { return }
        if user["backend"]?.objectValue?["session"] != nil { throw refuse("a Firebase session") }
        for identity in user["providerData"]?.arrayValue ?? [] {
            if identity.objectValue?["tokens"] != nil { throw refuse("tokens") }
            if let workload = identity.objectValue?["workload"]?.objectValue,
                credentialSourceMembers.contains(where: { workload[$0] != nil })
            {
                throw refuse("where a workload's credential is read")
            }
        }
    }

    /// What an import did.
    public struct ImportResult: Sendable, Equatable {
        public var imported: [String]
        /// Users already in the keystore with the same record.
        public var unchanged: [String]
    }

    /// Reads an authctl export (`file` names it in errors).
    public static func parse(_ data: Data, file: String) throws -> [User] {
        guard let object = JSONValue.object(from: data) else {
            throw AuthError.invalidArgument("\(file) is not a JSON object. Give a file written by: \(command: .usersExport)")
        }
        if object["format"] == nil, object["users"] != nil {
            throw AuthError.invalidArgument(
                "\(file) looks like a Firebase export, which carries no issuer for its identities, so it cannot be imported. Import a file written by: \(command: .usersExport, .input(.format, "authctl"))"
            )
        }
        guard object["format"]?.stringValue == Document.formatName else {
            throw AuthError.invalidArgument("\(file) is not an \(command: .usersExport). Give a file written by: \(command: .usersExport)")
        }
        guard object["version"]?.numberValue == 1 else {
            throw AuthError.invalidArgument("\(file) has an export version this authctl does not know. Upgrade authctl")
        }
        if case .array(let users)? = object["users"] {
            for (index, user) in users.enumerated() { try checkCarriesNoSecret(user, label: "\(file): user \(index + 1)") }
        }
        let document: Document
        do {
            document = try KeystoreFile.decoder.decode(Document.self, from: data)
        } catch {
            throw AuthError.invalidArgument("\(file) has a malformed user record. Give a file written by: \(command: .usersExport)")
        }
        for (index, user) in document.users.map(\.domain).enumerated() {
            let label = "\(file): user \(index + 1)"
            guard UIDSyntax.isUID(user.uid, lengths: UIDSyntax.exportedLengths) else {
                throw AuthError.invalidArgument("\(label) has an invalid uid")
            }
            guard !user.providerData.isEmpty else { throw AuthError.invalidArgument("\(label) has no linked identity") }
            for identity in user.providerData {
                _ = try ProviderID(parsing: identity.providerID)
                guard !identity.issuer.isEmpty, !identity.federatedID.isEmpty else {
                    throw AuthError.invalidArgument("\(label) has an identity without issuer or federated id")
                }
            }
        }
        return document.users.map { withoutTokens($0.domain) }
    }

    /// Adds the users to the state, all or nothing. A user already present with the same
    /// record is left as it is; a uid present with another record, or an identity that
    /// belongs to another user, refuses the whole import.
    public static func merge(_ users: [User], into target: inout AccountState) throws -> ImportResult {
        var state = target
        var result = ImportResult(imported: [], unchanged: [])
        var seen: [IdentityKey: String] = [:]
        for user in users {
            if let index = state.userIndex(uid: user.uid) {
                guard importedForm(state.users[index]) == importedForm(user) else {
                    throw AuthError.invalidArgument(
                        "user \(user.uid) is already in the keystore with another record; nothing was imported. Delete it first (\(command: .usersDelete, "\(user.uid)")) or remove it from the file"
                    )
                }
                result.unchanged.append(user.uid)
                continue
            }
            for identity in user.providerData {
                let key = IdentityKey(providerID: identity.providerID, issuer: identity.issuer, federatedID: identity.federatedID)
                if let (owner, _) = state.owner(of: key) {
                    throw AuthError.credentialAlreadyInUse(
                        message:
                            "the \(identity.providerID) identity of user \(user.uid) is already linked to user \(state.users[owner].uid) in the keystore; nothing was imported",
                        details: ["providerId": .string(identity.providerID), "uid": .string(state.users[owner].uid)])
                }
                if let other = seen[key], other != user.uid {
                    throw AuthError.invalidArgument(
                        "users \(other) and \(user.uid) share a \(identity.providerID) identity; nothing was imported")
                }
                seen[key] = user.uid
            }
            state.users.append(user)
            result.imported.append(user.uid)
        }
        target = state
        return result
    }
}

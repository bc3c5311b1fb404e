/// The local account commands `users show|use|export|import` (`status` and `users list` read the
/// keystore directly).
public struct Accounts: Sendable {
    let keystore: any Keystore

    public init(keystore: any Keystore) { self.keystore = keystore }

    /// `users show [UID]` (the current user by default): profiles only, so a sealed keystore
    /// needs no key (its tokens say they are sealed).
    public func show(uid: String?) throws -> User {
        let state = try keystore.readProfiles()
        guard let uid = uid ?? state.currentUID else { throw AuthError.noCurrentUser }
        guard let user = state.users.first(where: { $0.uid == uid }) else {
            throw AuthError.invalidArgument(
                "no user has the uid '\(Sanitize.text(uid, limit: 64))'. List them with: \(command: .usersList)")
        }
        return user
    }

    /// `users use UID`.
    public func use(uid: String) async throws -> User {
        try await keystore.update { state in
            try AccountRules.use(&state, uid: uid)
            guard let user = state.currentUser else { throw AuthError.noCurrentUser }
            return user
        }
    }
}

extension Accounts {
    /// `users export [--format authctl|firebase]`: the account records, never a token, so a
    /// sealed keystore is not opened.
    public func export(format: UserExport.Format) throws -> Data {
        try UserExport.export(try keystore.readProfiles(), format: format)
    }

    /// `users import FILE`: all or nothing, under the keystore lock. Imported users are
    /// signed out (an export holds no token).
    public func importUsers(_ data: Data, file: String) async throws -> UserExport.ImportResult {
        let users = try UserExport.parse(data, file: file)
        return try await keystore.update { state in try UserExport.merge(users, into: &state) }
    }
}

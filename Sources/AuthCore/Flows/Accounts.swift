import Foundation

/// The local account commands `users show|use` (`status` and `users list` read the
/// keystore directly).
public struct Accounts: Sendable {
    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    /// `users show [UID]` (the current user by default).
    public func show(uid: String?) throws -> User {
        let state = try environment.keystore.read()
        guard let uid = uid ?? state.currentUID else { throw AuthError.noCurrentUser }
        guard let user = state.users.first(where: { $0.uid == uid }) else {
            throw AuthError.invalidArgument("no user has the uid '\(Sanitize.text(uid, limit: 64))'. List them with: authctl users list")
        }
        return user
    }

    /// `users use UID`.
    public func use(uid: String) async throws -> User {
        try await environment.keystore.update { state in
            try AccountRules.use(&state, uid: uid)
            return state.currentUser!
        }
    }
}

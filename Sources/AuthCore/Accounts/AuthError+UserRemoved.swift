extension AuthError {
    /// The user a command works on was removed by another command meanwhile (`users delete`).
    static func userRemoved(_ uid: String) -> AuthError {
        AuthError.invalidCredential(
            "the user \(uid) was removed by another command (\(command: .usersDelete)) while this one ran. Sign in again: \(command: .login, "PROVIDER")"
        )
    }
}

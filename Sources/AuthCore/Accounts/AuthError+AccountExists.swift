extension AuthError {
    /// docs/accounts.md: a new identity whose verified email is another user's.
    ///
    /// - Parameter signedIn: that user is the one signed in already: `link --pending` alone
    ///   adds the identity, without a sign-in first.
    static func accountExists(email: String, existing user: User, pendingHandle: String, signedIn: Bool = false) -> AuthError {
        let providers = user.providerData.map(\.providerID)
        let first = providers.first ?? "PROVIDER"
        let next: Message =
            signedIn
            ? "You are signed in to that account: to add this identity to it, run: \(command: .link, .input(.pending, pendingHandle))"
            : "Sign in with \(first) (\(command: .login, "\(first)")), then run: \(command: .link, .input(.pending, pendingHandle))"
        return .accountExists(
            message: "an account already exists for \(email) with \(providers.joined(separator: ", ")). \(next)",
            details: [
                "email": .string(email), "providerIds": .array(providers.map(JSONValue.string)), "uid": .string(user.uid),
                "pendingCredential": .string(pendingHandle),
            ])
    }
}

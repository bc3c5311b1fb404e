/// A Firebase project as the backend (docs/firebase.md): every sign-in is brokered by the project
/// (`FirebaseSignIn`), which applies the account rules itself; a pending credential is the
/// project's `pendingToken`.
public struct FirebaseAccountBackend: AccountBackend {
    let firebase: FirebaseSignIn

    public init(_ firebase: FirebaseSignIn) { self.firebase = firebase }

    public func signIn(_ input: SignIn.Input) async throws -> SignIn.Output {
        let output = try await run(.signIn, providerID: input.providerID, source: input.source)
        return SignIn.Output(user: output.user, providerID: output.providerID, isNewUser: output.isNewUser)
    }

    public func link(_ input: Link.Input) async throws -> Link.Output {
        let output = try await run(.link, providerID: input.providerID, source: input.source)
        return Link.Output(user: output.user, providerID: output.providerID)
    }

    /// `autoCreate: false`, and the uid checked.
    public func reauthenticate(_ input: Reauthenticate.Input) async throws -> User {
        try await run(.reauthenticate, providerID: input.providerID, source: input.source).user
    }

    func run(_ operation: FirebaseSignIn.Operation, providerID: ProviderID?, source: CredentialSource) async throws
        -> FirebaseSignIn.Output
    {
        if case .pending(let handle) = source {
            return try await firebase.runPending(operation, handle: handle)
        }
        guard let providerID else { throw AuthError.invalidArgument("name the provider: \(command: .login, "PROVIDER")") }
        switch source {
        case .idToken(let token, let rawNonce):
            return try await firebase.runIDToken(operation, providerID: providerID, idToken: token, rawNonce: rawNonce)
        case .interactive(let options):
            return try await firebase.run(operation, providerID: providerID, options: options)
        case .pending:
            throw AuthError.internalError("a pending credential is applied above")
        }
    }
}

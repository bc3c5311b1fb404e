/// `authctl token` for a user of a Firebase project (docs/firebase.md): without a provider, the
/// Firebase ID token of the session — from the keystore on the hot path, refreshed through
/// securetoken (`FirebaseSessionRefresh`) when it expires within `--min-ttl`; with a
/// provider, that provider's access token from the sign-in, as for a local user.
extension TokenRefresh {
    /// How `token` names the Firebase session in its output (`providerId`).
    public static let firebaseSessionID = "firebase"

    /// The Firebase session `input` asks for: a Firebase user's, when no provider (and no
    /// scope) is named; nil otherwise (the provider's tokens are asked).
    static func firebaseSession(_ input: Input, of user: User) throws -> TokenSet? {
        guard let backend = user.backend, input.providerID == nil, input.scopes.isEmpty else { return nil }
        guard let session = backend.session else {
            throw AuthError.userTokenExpired(
                "the Firebase session of \(user.email ?? user.uid) has ended. Sign in again: \(command: .login, .value(user.lastProviderID ?? "PROVIDER"))"
            )
        }
        return session
    }

    /// The Firebase ID token as `token` prints it, when valid for `minimumTTL` (or at all,
    /// after a refresh).
    static func firebaseOutput(_ session: TokenSet, uid: String, input: Input, now: Date, refreshed: Bool, minimumTTLApplies: Bool = true)
        -> Output?
    {
        guard let idToken = session.idToken, session.isValid(at: now, minimumTTL: minimumTTLApplies ? input.minimumTTL : 0) else {
            return nil
        }
        return Output(
            uid: uid, providerID: firebaseSessionID, tokenType: "Bearer", token: idToken, isIDToken: true, expiresAt: session.expiresAt,
            scopes: [], refreshed: refreshed)
    }

    /// The refresh of a Firebase session: the project's client from the configuration, which
    /// must be the user's project.
    func refreshFirebase(_ input: Input, user: User, seen: TokenSet) async throws -> Output {
        guard let backend = user.backend else { throw AuthError.internalError("the user is not a Firebase user") }
        guard let config = try configStore.firebaseBackend(), config.projectId == backend.projectID else {
            throw AuthError.notConfigured(
                "the user \(user.email ?? user.uid) lives in the Firebase project \(backend.projectID), which is not the configured backend, so its session cannot be refreshed. Set it: \(command: .backendUse, "firebase", .input(.project, "\(backend.projectID)"), .input(.apiKey, "KEY"))"
            )
        }
        let emulator = try firebaseEmulatorHost.map { try FirebaseEmulatorHost(parsing: $0, from: .environment) }
        let client = try FirebaseAuthClient(config: config, emulator: emulator, transport: transport, clock: clock)
        let (tokens, refreshed) = try await FirebaseSessionRefresh(client: client, keystore: keystore, clock: clock)
            .session(uid: user.uid, minimumTTL: input.minimumTTL, force: input.forceRefresh, seen: seen)
        guard
            let output = Self.firebaseOutput(
                tokens, uid: user.uid, input: input, now: clock.now(), refreshed: refreshed, minimumTTLApplies: false)
        else {
            throw AuthError.invalidCredential(
                "Firebase returned no valid ID token on refresh. Sign in again: \(command: .login, "PROVIDER")")
        }
        return output
    }

    /// A Firebase user's provider token that expired: Firebase hands it over at sign-in only.
    static func firebaseProviderTokenExpired(_ providerID: String) -> AuthError {
        AuthError.invalidCredential(
            "the \(providerID) access token has expired, and Firebase hands a provider's token over only at sign-in. Get a fresh one: \(command: .reauthenticate, "\(providerID)")"
        )
    }
}

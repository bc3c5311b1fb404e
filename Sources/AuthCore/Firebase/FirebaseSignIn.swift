/// `login`, `link` and `reauth` with the Firebase backend (docs/firebase.md): the brokered browser
/// flow (`BrokeredSignIn`) around `createAuthUri` and `signInWithIdp`, then the Firebase
/// session and the user's identities (`accounts:lookup`) kept in the keystore. Firebase
/// applies the account rules; its refusals come back as the errors of docs/accounts.md and docs/exit-codes.md.
public struct FirebaseSignIn: Sendable {
    public enum Operation: Sendable, Equatable {
        case signIn
        /// The current user (resolved when the command starts) links the identity.
        case link
        /// The current user proves again that it holds the identity (`autoCreate: false`).
        case reauthenticate
    }

    /// The user after the operation, the provider it went through, and whether Firebase
    /// created the user.
    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
        public var isNewUser: Bool
    }

    let client: FirebaseAuthClient
    let keystore: any Keystore
    let flow: BrokeredSignIn
    let clock: any Clock
    let sessions: FirebaseSessionRefresh

    public init(client: FirebaseAuthClient, keystore: any Keystore, flow: BrokeredSignIn, clock: any Clock) {
        self.client = client
        self.keystore = keystore
        self.flow = flow
        self.clock = clock
        sessions = FirebaseSessionRefresh(client: client, keystore: keystore, clock: clock)
    }

    public func run(_ operation: Operation, providerID: ProviderID, options: FlowOptions) async throws -> Output {
        // Checked before the browser opens: the keystore, the user, the parameters.
        let state = try keystore.read()
        var idToken: String?
        var uid: String?
        if operation != .signIn {
            guard let user = state.currentUser else { throw AuthError.noCurrentUser }
            try Self.checkServed(user, by: client)
            if operation == .link, user.identity(for: providerID.rawValue) != nil {
                throw AuthError.providerAlreadyLinked(providerID.rawValue, sameIdentity: false)
            }
            if operation == .reauthenticate, user.identity(for: providerID.rawValue) == nil {
                throw AuthError.noSuchProvider(providerID.rawValue, linked: user.providerData.map(\.providerID))
            }
            uid = user.uid
            // Link with the current user's ID token (fresh); reauth proves the identity alone.
            if operation == .link { idToken = try await sessions.freshIDToken(uid: user.uid) }
        }
        // The provider's own parameters (Microsoft: `--tenant`), checked before the browser opens.
        let parameters = try ProviderRegistry.kind(of: providerID).brokeredParameters(options.parameters, tenant: options.tenant)
        let scopes = options.scopes
        let tenantID = client.config.tenantId
        // The reserved names are refused before the browser opens.
        _ = try FirebaseRequests.CreateAuthURI(
            providerID: providerID.rawValue, continueURI: "http://localhost/", scopes: scopes, parameters: parameters, tenantID: tenantID)
        let firebaseOperation: FirebaseErrorMapping.Operation =
            switch operation {
            case .signIn: .signIn(providerID: providerID.rawValue)
            case .link: .link(providerID: providerID.rawValue)
            case .reauthenticate: .reauthenticate(providerID: providerID.rawValue)
            }
        return try await flow.run(
            providerID: providerID, options: options,
            authorize: { redirectURI in
                try await client.createAuthURI(
                    FirebaseRequests.CreateAuthURI(
                        providerID: providerID.rawValue, continueURI: redirectURI, scopes: scopes, parameters: parameters,
                        tenantID: tenantID))
            },
            complete: { redirect in
                let request = FirebaseRequests.SignInWithIdP(
                    requestURI: redirect.requestURI, postBody: redirect.postBody, sessionID: redirect.sessionID, idToken: idToken,
                    autoCreate: operation == .reauthenticate ? false : nil, tenantID: tenantID)
                return try await apply(request, operation: firebaseOperation, expectedUID: uid)
            })
    }

    /// `signInWithIdp`, then the session and the identities kept (docs/firebase.md).
    func apply(
        _ request: FirebaseRequests.SignInWithIdP, operation: FirebaseErrorMapping.Operation, expectedUID: String?,
        pendingHandle: String? = nil
    ) async throws -> Output {
        let json: [String: JSONValue]
        switch try await client.signInWithIdP(request) {
        case .refused(let failure, let fields):
            throw try await conflict(failure, fields: fields, operation: operation)
        case .accepted(let fields):
            json = fields
        }
        let now = clock.now()
        let result = try FirebaseSignInResult(json, now: now)
        if let expectedUID, result.localID != expectedUID {
            // Reauth with an identity of another user; a link that came back as another user.
            throw AuthError.userMismatch(
                "that \(result.providerID) account belongs to another user of the Firebase project \(client.project), not the current one. Sign in with the current user's \(result.providerID) account",
                details: ["providerId": .string(result.providerID)])
        }
        let session = try client.session(
            localID: result.localID, idToken: result.idToken, refreshToken: result.refreshToken, expiresIn: result.expiresIn)
        let linked = try await client.linkedProviders(idToken: session.idToken)
        let backend = UserBackend(
            projectID: client.project, tenantID: client.config.tenantId,
            session: TokenSet(
                accessToken: nil, expiresAt: session.expiresAt, refreshToken: session.refreshToken, idToken: session.idToken, scopes: []),
            emulator: client.endpoints.emulator)
        let project = client.project
        let user = try await keystore.update { state in
            let index = state.userIndex(uid: result.localID)
            // A uid is Firebase's word only within its project and tenant: a record of this
            // keystore that belongs to another backend (a local user, a workload, another
            // project or tenant) is never taken over, whatever the answer says.
            if let index,
                state.users[index].kind == .workload || state.users[index].backend?.projectID != project
                    || state.users[index].backend?.tenantID != client.config.tenantId
                    || state.users[index].backend?.emulator != client.endpoints.emulator
            {
                throw AuthError.invalidCredential(
                    "Firebase answered with the user \(Sanitize.text(result.localID, limit: 128)), which this keystore holds for another backend (\(state.users[index].backend?.name ?? "local")); nothing was changed. Check the project (\(command: .backendShow)) and sign in again"
                )
            }
            var user =
                index.map { state.users[$0] }
                ?? User(
                    uid: result.localID, email: result.profile.email, emailVerified: result.profile.emailVerified,
                    displayName: result.profile.displayName, photoURL: result.profile.photoURL, createdAt: now, lastSignInAt: now,
                    lastAuthAt: now, lastProviderID: result.providerID, providerData: [])
            user.backend = backend
            user.lastAuthAt = now
            if case .signIn = operation {
                user.lastSignInAt = now
                user.lastProviderID = result.providerID
            }
            if user.email == nil { user.email = result.profile.email; user.emailVerified = result.profile.emailVerified }
            if user.displayName == nil { user.displayName = result.profile.displayName }
            user.providerData = linked.map { info in
                let previous = user.identity(for: info.providerID)
                if info.providerID == result.providerID {
                    return LinkedIdentity(
                        providerID: info.providerID, issuer: result.issuer ?? previous?.issuer ?? "firebase:\(project)",
                        federatedID: info.federatedID, profile: result.profile, linkedAt: previous?.linkedAt ?? now,
                        tokens: result.providerTokens ?? previous?.tokens)
                }
                return previous
                    ?? LinkedIdentity(
                        providerID: info.providerID, issuer: "firebase:\(project)", federatedID: info.federatedID,
                        profile: Profile(email: info.email, displayName: info.displayName), linkedAt: now, tokens: nil)
            }
            if let index { state.users[index] = user } else { state.users.append(user) }
            if case .signIn = operation { state.currentUID = user.uid }
            if let pendingHandle { state.pendingCredentials.removeAll { $0.handle == pendingHandle } }
            return user
        }
        return Output(user: user, providerID: result.providerID, isNewUser: result.isNewUser)
    }

    /// A refusal of `signInWithIdp` as docs/accounts.md's error. A conflict's credential — Firebase's
    /// `pendingToken` and the provider's token — is saved as a pending credential first, so
    /// that `link --pending` or `login --credential` finishes it in another process (docs/firebase.md).
    func conflict(_ failure: FirebaseServiceError, fields: [String: JSONValue], operation: FirebaseErrorMapping.Operation) async throws
        -> AuthError
    {
        let email = fields["email"]?.stringValue.map { Sanitize.text($0, limit: 320) }
        let providerID = fields["providerId"]?.stringValue.map { Sanitize.text($0, limit: 64) } ?? operation.providerID ?? "PROVIDER"
        switch failure.code {
        case "NEED_CONFIRMATION", "EMAIL_EXISTS":
            let providers = (fields["verifiedProvider"]?.arrayValue ?? []).compactMap(\.stringValue).map { Sanitize.text($0, limit: 64) }
            let first = providers.first ?? "PROVIDER"
            var details: [String: JSONValue] = [
                "email": .string(email ?? ""), "providerIds": .array(providers.map(JSONValue.string)),
                "firebaseError": .string(failure.code == "EMAIL_EXISTS" ? "EMAIL_EXISTS" : "needConfirmation"),
            ]
            let handle = try await savePending(fields, reason: .accountExists)
            let next: Message =
                handle.map { "then run: \(command: .link, .input(.pending, $0))" }
                ?? "then link it: \(command: .link, "\(providerID)")"
            if let handle { details["pendingCredential"] = .string(handle) }
            return AuthError.accountExists(
                message:
                    "an account already exists for \(email ?? "that email") in the Firebase project \(client.project)\(providers.isEmpty ? "" : " with \(providers.joined(separator: ", "))"). Sign in to it (\(command: .login, "\(first)")), \(next)",
                details: details)
        case "FEDERATED_USER_ID_ALREADY_LINKED", "CREDENTIAL_ALREADY_IN_USE":
            var details: [String: JSONValue] = ["providerId": .string(providerID), "firebaseError": .string(failure.code)]
            let handle = try await savePending(fields, reason: .credentialAlreadyInUse)
            if let handle { details["pendingCredential"] = .string(handle) }
            let next: Message =
                handle.map { "To sign in as that user: \(command: .login, .input(.credential, $0))" } ?? "Sign in as that user instead"
            return AuthError.credentialAlreadyInUse(
                message: "that \(providerID) account is already linked to another user of the Firebase project \(client.project). \(next)",
                details: details)
        default:
            return FirebaseErrorMapping.error(failure, operation: operation, project: client.project)
        }
    }

    /// Saves a conflict's credential under a fresh handle; nil when Firebase gave no pending token.
    func savePending(_ fields: [String: JSONValue], reason: PendingCredential.Reason) async throws -> String? {
        guard let pendingToken = fields["pendingToken"]?.stringValue, FirebaseAnswer.isToken(pendingToken),
            let providerID = fields["providerId"]?.stringValue, FirebaseAnswer.isProviderID(providerID)
        else { return nil }
        let now = clock.now()
        // Kept with the pending token, bounded and checked as a sign-in's are.
        func token(_ key: String) -> String? { fields[key]?.stringValue.flatMap { FirebaseAnswer.isToken($0) ? $0 : nil } }
        let accessToken = token("oauthAccessToken")
        let federatedID = (fields["rawId"]?.stringValue ?? fields["federatedId"]?.stringValue).map { Sanitize.text($0, limit: 1024) }
        var credential = Credential(
            providerID: providerID, issuer: "firebase:\(client.project)",
            federatedID: federatedID.flatMap { $0.isEmpty ? nil : $0 } ?? providerID,
            profile: Profile(
                email: fields["email"]?.stringValue.map { Sanitize.text($0, limit: 320) },
                emailVerified: fields["emailVerified"]?.lenientBool ?? false),
            tokens: TokenSet(
                accessToken: accessToken, expiresAt: FirebaseAuthClient.seconds(fields["oauthExpireIn"]).map { now.addingTimeInterval($0) },
                refreshToken: nil, idToken: token("oauthIdToken"), scopes: []),
            claims: IDTokenClaims(raw: [:]))
        credential.brokered = BrokeredCredential(projectID: client.project, pendingToken: pendingToken)
        let handle = "pc_" + flow.random.base64URL(bytes: 15)
        let pending = PendingCredential(handle: handle, reason: reason, conflictingUID: "", createdAt: now, credential: credential)
        try await keystore.update { state in state.pendingCredentials.append(pending) }
        return handle
    }

    /// `--id-token -` (docs/firebase.md): an ID token obtained elsewhere, sent as `postBody`
    /// (`id_token=…&providerId=…[&nonce=RAW]`) with `requestUri` `http://localhost`; Firebase
    /// verifies it. Not for a provider Firebase takes only through its own code exchange
    /// (Microsoft: `BrokeredSignInRules.checkBrokeredIDToken`).
    public func runIDToken(_ operation: Operation, providerID: ProviderID, idToken input: IDTokenInput, rawNonce: String?) async throws
        -> Output
    {
        try ProviderRegistry.kind(of: providerID).checkBrokeredIDToken()
        // Read only now: a refused provider's sign-in is refused before anyone is asked for a token.
        let trimmed = try input.token().trimming(.whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw AuthError.invalidArgument(
                "no ID token arrived on stdin. Pipe it in: \(command: .login, "\(providerID)", .input(.idToken, "-"), "< token.jwt")")
        }
        let state = try keystore.read()
        var idToken: String?
        var uid: String?
        if operation != .signIn {
            guard let user = state.currentUser else { throw AuthError.noCurrentUser }
            try Self.checkServed(user, by: client)
            uid = user.uid
            if operation == .link { idToken = try await sessions.freshIDToken(uid: user.uid) }
        }
        var fields = [("id_token", trimmed), ("providerId", providerID.rawValue)]
        if let rawNonce { fields.append(("nonce", rawNonce)) }
        let request = FirebaseRequests.SignInWithIdP(
            requestURI: "http://localhost", postBody: FormURLEncoding.encode(fields), idToken: idToken,
            autoCreate: operation == .reauthenticate ? false : nil, tenantID: client.config.tenantId)
        let firebaseOperation: FirebaseErrorMapping.Operation =
            switch operation {
            case .signIn: .signIn(providerID: providerID.rawValue)
            case .link: .link(providerID: providerID.rawValue)
            case .reauthenticate: .reauthenticate(providerID: providerID.rawValue)
            }
        return try await apply(request, operation: firebaseOperation, expectedUID: uid)
    }

    /// `link --pending HANDLE` (the current user links it) or `login --credential HANDLE` (sign
    /// in as the user it belongs to): `signInWithIdp` with the saved `pendingToken`.
    public func runPending(_ operation: Operation, handle: String) async throws -> Output {
        let state = try keystore.read()
        let pending = try AccountRules.pendingCredential(handle, in: state, now: clock.now())
        guard let brokered = pending.credential.brokered, brokered.projectID == client.project, !brokered.pendingToken.isEmpty else {
            throw AuthError.invalidArgument(
                "the pending credential \(handle) was not saved by the Firebase project \(client.project), so it cannot be applied there")
        }
        let providerID = pending.credential.providerID
        var idToken: String?
        var uid: String?
        if operation == .link {
            guard let user = state.currentUser else { throw AuthError.noCurrentUser }
            try Self.checkServed(user, by: client)
            uid = user.uid
            idToken = try await sessions.freshIDToken(uid: user.uid)
        }
        let request = FirebaseRequests.SignInWithIdP(
            requestURI: "http://localhost", pendingToken: brokered.pendingToken, idToken: idToken, tenantID: client.config.tenantId)
        return try await apply(
            request, operation: operation == .link ? .link(providerID: providerID) : .signIn(providerID: providerID), expectedUID: uid,
            pendingHandle: handle)
    }

    static func otherBackend(_ user: User, project: String) -> AuthError {
        AuthError.invalidArgument(
            "the current user (\(user.email ?? user.uid)) lives in \(user.backend?.name ?? "the local keystore"), not in the Firebase project \(project). Sign in to the project first: \(command: .login, "PROVIDER")"
        )
    }

    /// A Firebase user whose session came from another service than the one configured now
    /// (`FIREBASE_AUTH_EMULATOR_HOST` set, unset or changed): its tokens go nowhere else.
    static func otherService(_ user: User, client: FirebaseAuthClient) -> AuthError {
        AuthError.invalidArgument(
            "the session of \(user.email ?? user.uid) came from \(user.backend?.serviceName ?? "the local keystore"), and the backend now reaches \(UserBackend.serviceName(emulator: client.endpoints.emulator)); its tokens are sent only where they came from. Set FIREBASE_AUTH_EMULATOR_HOST (or \(input: .emulator)) as at its sign-in, or sign in again"
        )
    }

    /// Throws unless `user` is a user of this client's project, tenant and service.
    static func checkServed(_ user: User, by client: FirebaseAuthClient) throws {
        guard let backend = user.backend, backend.projectID == client.project else { throw otherBackend(user, project: client.project) }
        guard backend.emulator == client.endpoints.emulator else { throw otherService(user, client: client) }
    }
}

/// The keystore as the backend (docs/accounts.md): the credential comes from authctl's own flows
/// (`CredentialIssuing`: the browser, `--manual`, the device flow, `--id-token`) or from a
/// pending credential, and the account rules are applied on this machine
/// (`CredentialAccountStore`).
public struct LocalAccountBackend: AccountBackend {
    let operation: AccountOperation
    let prompt: any ConsentPrompt

    /// - Parameter prompt: asks a person before a private-relay link (docs/apple.md).
    public init(
        accounts: any CredentialAccountStore, configStore: ConfigStore, issuer: any CredentialIssuing, events: any AuthEventSink,
        prompt: any ConsentPrompt
    ) {
        operation = AccountOperation(accounts: accounts, configStore: configStore, issuer: issuer, events: events)
        self.prompt = prompt
    }

    public func signIn(_ input: SignIn.Input) async throws -> SignIn.Output {
        let source = try input.source.withIDTokenRead()
        return try await operation.apply(for: input.providerID, source: source, command: .login) { credential, handle in
            let result = try await operation.accounts.signIn(with: credential, pendingHandle: handle)
            return SignIn.Output(user: result.user, providerID: credential.providerID, isNewUser: result.isNewUser)
        }
    }

    public func link(_ input: Link.Input) async throws -> Link.Output {
        let source = try input.source.withIDTokenRead()
        let providerID = input.providerID
        // The user is resolved once, before the sign-in: the identity joins that user even
        // when another process makes someone else current meanwhile (`users use`).
        var uid: String?
        return try await operation.apply(
            for: providerID, source: source, command: .link,
            precheck: { state in
                uid = state.currentUID
                if let providerID { try AccountRules.checkCanLink(state, providerID: providerID.rawValue) }
                if !input.consent, !prompt.canAsk { try AccountRules.checkConsentPossible(state) }
            }
        ) { credential, handle in
            let resolved = uid
            let consent = try askConsentIfNeeded(for: credential, given: input.consent, uid: resolved)
            try Task.checkCancellation()  // Ctrl-C at the question: nothing changes (exit 5)
            let user = try await operation.accounts.link(credential, toUser: resolved, pendingHandle: handle, consent: consent)
            return Link.Output(user: user, providerID: credential.providerID)
        }
    }

    /// docs/apple.md: a private-relay link needs consent — the flag, or a yes from a person at a
    /// terminal. Without a terminal nobody is asked, and the rules refuse.
    func askConsentIfNeeded(for credential: Credential, given: Bool, uid: String?) throws -> Bool {
        guard !given else { return true }
        let state = try operation.accounts.accounts()
        guard let user = uid.flatMap({ uid in state.users.first { $0.uid == uid } }), state.owner(of: credential.key) == nil,
            let reason = AccountRules.consentReason(linking: credential.profile, to: user),
            prompt.canAsk
        else { return false }
        return prompt.agreesToLink(credential.providerID, to: user, reason: reason)
    }

    /// A fresh sign-in (`Reauthenticate` refuses a pending credential before it gets here).
    public func reauthenticate(_ input: Reauthenticate.Input) async throws -> User {
        let source = try input.source.withIDTokenRead()
        let providerID = input.providerID
        // The user is the one current when the command starts, whoever is current once the
        // sign-in is done (another process may run `users use` meanwhile).
        var uid: String?
        return try await operation.apply(
            for: providerID, source: source, command: .reauthenticate,
            precheck: { state in
                try AccountRules.checkCanReauthenticate(state, providerID: providerID.rawValue)
                uid = state.currentUID
            }
        ) { credential, _ in
            guard let resolved = uid else { throw AuthError.noCurrentUser }
            return try await operation.accounts.reauthenticate(user: resolved, with: credential)
        }
    }
}

/// `authctl link PROVIDER` and `authctl link --pending HANDLE` (SPEC §2, §5).
public struct Link: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID?
        public var source: CredentialSource
        /// `--consent`: agree to link a private-relay identity (SPEC §4) without being asked.
        public var consent: Bool

        public init(providerID: ProviderID?, source: CredentialSource, consent: Bool = false) {
            self.providerID = providerID
            self.source = source
            self.consent = consent
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
    }

    let operation: AccountOperation
    let prompt: any ConsentPrompt

    public init(
        accounts: any AccountStore, configStore: ConfigStore, issuer: any CredentialIssuing, events: any AuthEventSink,
        prompt: any ConsentPrompt
    ) {
        operation = AccountOperation(accounts: accounts, configStore: configStore, issuer: issuer, events: events)
        self.prompt = prompt
    }

    public func run(_ input: Input) async throws -> Output {
        let providerID = input.providerID
        // The user is resolved once, before the sign-in: the identity joins that user even
        // when another process makes someone else current meanwhile (`users use`).
        var uid: String?
        return try await operation.apply(
            for: providerID, source: input.source, command: .link,
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
            return Output(user: user, providerID: credential.providerID)
        }
    }

    /// SPEC §4: a private-relay link needs consent — the flag, or a yes from a person at a
    /// terminal. Without a terminal nobody is asked, and the rules refuse.
    func askConsentIfNeeded(for credential: Credential, given: Bool, uid: String?) throws -> Bool {
        guard !given else { return true }
        let state = try operation.accounts.accounts()
        guard let user = uid.flatMap({ uid in state.users.first { $0.uid == uid } }), state.owner(of: credential.key) == nil,
            let reason = AccountRules.consentReason(linking: credential.profile, to: user),
            prompt.canAsk
        else { return false }
        return prompt.confirm("Link \(credential.providerID) to \(user.email ?? user.uid)? Note: \(reason).")
    }
}

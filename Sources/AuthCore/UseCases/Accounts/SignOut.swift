/// `authctl signout [--all] [--revoke]` (docs/authctl.1).
public struct SignOut: Sendable {
    public struct Input: Sendable {
        public var all: Bool
        public var revoke: Bool

        public init(all: Bool = false, revoke: Bool = false) {
            self.all = all
            self.revoke = revoke
        }
    }

    public typealias Revocation = TokenRevocation.Result

    public struct Output: Sendable, Equatable {
        public var signedOut: [String]
        public var revocations: [Revocation]
    }

    let accounts: any AccountStore
    let revocation: TokenRevocation

    public init(accounts: any AccountStore, revocation: TokenRevocation) {
        self.accounts = accounts
        self.revocation = revocation
    }

    public func run(_ input: Input) async throws -> Output {
        let state = try accounts.accounts()
        // Nobody current: nothing to end, with or without --all (the same answer; nothing is written).
        guard input.all || state.currentUser != nil else { return Output(signedOut: [], revocations: []) }
        // Resolved once: another process may make another user current meanwhile.
        let uid = state.currentUID
        let users = state.users.filter {
            input.all ? $0.providerData.contains { $0.tokens != nil } || $0.resourceGrants.contains { $0.tokens != nil } : $0.uid == uid
        }
        var revocations: [Revocation] = []
        if input.revoke {
            for user in users {
                // A Firebase user's provider sessions are the project's (docs/firebase.md): nothing is
                // sent to a provider configured here, which may be another registration.
                if user.backend != nil {
                    for identity in user.providerData where identity.tokens != nil {
                        revocations.append(
                            Revocation(
                                uid: user.uid, providerID: identity.providerID, result: .notSupported,
                                message: "the provider's session is held by the Firebase project"))
                    }
                    continue
                }
                for identity in user.providerData {
                    if let result = await revocation.revoke(identity, uid: user.uid) { revocations.append(result) }
                }
                for grant in user.resourceGrants {
                    if let result = await revocation.revoke(grant, uid: user.uid) { revocations.append(result) }
                }
            }
        }
        if !users.isEmpty || state.currentUID != nil { try await accounts.signOut(all: input.all, user: input.all ? nil : uid) }
        return Output(signedOut: users.map(\.uid), revocations: revocations)
    }
}

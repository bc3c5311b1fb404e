/// `authctl unlink PROVIDER`: removes the identity (and its tokens) from the current user
/// (docs/authctl.1, docs/accounts.md). Its refresh token is revoked first where the provider allows it.
public struct Unlink: Sendable {
    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
        /// Nil when the identity held no token.
        public var revocation: TokenRevocation.Result?
    }

    let accounts: any AccountStore
    let revocation: TokenRevocation

    public init(accounts: any AccountStore, revocation: TokenRevocation) {
        self.accounts = accounts
        self.revocation = revocation
    }

    public func run(providerID: ProviderID) async throws -> Output {
        // Resolved once: the identity revoked is the one removed, whoever is current by then.
        let uid = try accounts.accounts().currentUID
        // The rules are checked before anything is revoked.
        let removed = try accounts.identityToUnlink(providerID.rawValue, fromUser: uid)
        let revocation = await revocation.revoke(removed, uid: uid ?? "")
        let user = try await accounts.unlink(providerID.rawValue, fromUser: uid)
        return Output(user: user, providerID: providerID.rawValue, revocation: revocation)
    }
}

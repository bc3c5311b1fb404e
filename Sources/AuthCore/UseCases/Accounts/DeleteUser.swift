/// `authctl users delete [UID]`: a sensitive operation (docs/authctl.1, docs/accounts.md). It needs a sign-in
/// in the last five minutes, revokes every token that can be revoked, then removes the
/// user from the keystore.
public struct DeleteUser: Sendable {
    public struct Output: Sendable, Equatable {
        public var user: User
        public var revocations: [TokenRevocation.Result]
    }

    let accounts: any AccountStore
    let revocation: TokenRevocation

    public init(accounts: any AccountStore, revocation: TokenRevocation) {
        self.accounts = accounts
        self.revocation = revocation
    }

    public func run(uid: String?) async throws -> Output {
        // The rules (a recent sign-in) are checked before anything is revoked.
        let user = try accounts.userToDelete(uid)
        var revocations: [TokenRevocation.Result] = []
        for identity in user.providerData {
            if let result = await revocation.revoke(identity, uid: user.uid) { revocations.append(result) }
        }
        for grant in user.resourceGrants {
            if let result = await revocation.revoke(grant, uid: user.uid) { revocations.append(result) }
        }
        let deleted = try await accounts.deleteUser(user.uid)
        return Output(user: deleted, revocations: revocations)
    }
}

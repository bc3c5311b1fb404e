#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `authctl users delete [UID]`: a sensitive operation (SPEC §2, §5). It needs a sign-in
/// in the last five minutes, revokes every token that can be revoked, then removes the
/// user from the keystore.
public struct DeleteUser: Sendable {
    public struct Output: Sendable, Equatable {
        public var user: User
        public var revocations: [TokenRevocation.Result]
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(uid: String?) async throws -> Output {
        var preview = try environment.keystore.read()
        let user = try AccountRules.deleteUser(&preview, uid: uid, now: environment.clock.now())
        let revocation = TokenRevocation(environment: environment)
        var revocations: [TokenRevocation.Result] = []
        for identity in user.providerData {
            if let result = await revocation.revoke(identity, uid: user.uid) { revocations.append(result) }
        }
        let now = environment.clock.now()
        let deleted = try await environment.keystore.update { state in
            try AccountRules.deleteUser(&state, uid: user.uid, now: now)
        }
        return Output(user: deleted, revocations: revocations)
    }
}

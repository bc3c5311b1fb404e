import Foundation

/// `authctl login PROVIDER`: a browser sign-in, then the account rules of SPEC §5.
public struct SignIn: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var options: FlowOptions

        public init(providerID: ProviderID, options: FlowOptions) {
            self.providerID = providerID
            self.options = options
        }
    }

    public struct Output: Sendable, Equatable {
        public var user: User
        public var providerID: String
        public var isNewUser: Bool
    }

    let environment: AuthEnvironment

    public init(environment: AuthEnvironment) { self.environment = environment }

    public func run(_ input: Input) async throws -> Output {
        let provider = try environment.provider(input.providerID, for: input.options)
        // An unsafe or corrupt keystore fails before the browser opens.
        _ = try environment.keystore.read()
        let credential = try await AuthorizationCodeFlow(environment: environment).run(provider: provider, options: input.options)
        let now = environment.clock.now()
        let uid = environment.mintUID()
        let result = try await environment.keystore.update { state in
            AccountRules.signIn(&state, with: credential, now: now, newUID: uid)
        }
        return Output(user: result.user, providerID: credential.providerID, isNewUser: result.isNewUser)
    }
}

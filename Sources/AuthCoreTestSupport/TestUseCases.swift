import AuthCore
import Foundation

/// The use cases wired to a test environment's fakes, from its object graph (`UseCaseGraph`,
/// the one the executable builds). `keystore` replaces the environment's in-memory keystore
/// (one that interferes, say).
extension TestEnvironment {
    func graph(keystore: (any Keystore)?) -> UseCaseGraph { keystore.map(graph.with(keystore:)) ?? graph }

    public func accountStore(keystore: (any Keystore)? = nil) -> any CredentialAccountStore {
        graph(keystore: keystore).localAccountStore
    }

    public func tokenRefresh(keystore: (any Keystore)? = nil) -> TokenRefresh { graph(keystore: keystore).tokenRefresh }

    public var tokenRevocation: TokenRevocation { graph.tokenRevocation }

    /// The local backend (docs/accounts.md) on the fakes: the sign-in flows, the rules on the keystore.
    public func accountBackend(keystore: (any Keystore)? = nil) -> LocalAccountBackend {
        let graph = graph(keystore: keystore)
        return graph.localAccountBackend(accounts: graph.localAccountStore)
    }

    public func signIn(keystore: (any Keystore)? = nil) -> SignIn { SignIn(backend: accountBackend(keystore: keystore)) }

    public func link(keystore: (any Keystore)? = nil) -> Link { Link(backend: accountBackend(keystore: keystore)) }

    public func reauthenticate(keystore: (any Keystore)? = nil) -> Reauthenticate {
        Reauthenticate(backend: accountBackend(keystore: keystore))
    }

    public func unlink(keystore: (any Keystore)? = nil) -> Unlink {
        Unlink(accounts: accountStore(keystore: keystore), revocation: tokenRevocation)
    }

    public func deleteUser(keystore: (any Keystore)? = nil) -> DeleteUser {
        DeleteUser(accounts: accountStore(keystore: keystore), revocation: tokenRevocation)
    }

    public func signOut(keystore: (any Keystore)? = nil) -> SignOut {
        SignOut(accounts: accountStore(keystore: keystore), revocation: tokenRevocation)
    }

    public func userPhoto() -> UserPhoto { graph.userPhoto }

    public func gitCredential() -> GitCredential { graph.gitCredential }

    public func accounts() -> Accounts { Accounts(keystore: keystore) }
}

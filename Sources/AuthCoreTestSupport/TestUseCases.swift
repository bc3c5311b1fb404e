import AuthCore
import Foundation

/// The use cases wired to a test environment's fakes, each given the ports it declares.
/// `keystore` replaces the environment's in-memory keystore (one that interferes, say).
extension TestEnvironment {
    public func accountStore(keystore: (any Keystore)? = nil) -> any CredentialAccountStore {
        KeystoreAccountStore(keystore: keystore ?? self.keystore, clock: clock, random: random)
    }

    public func tokenRefresh(keystore: (any Keystore)? = nil) -> TokenRefresh {
        TokenRefresh(keystore: keystore ?? self.keystore, configStore: configStore, tokens: tokens, transport: transport, clock: clock)
    }

    public var tokenRevocation: TokenRevocation {
        TokenRevocation(configStore: configStore, tokens: tokens)
    }

    /// The local backend (docs/accounts.md) on the fakes: the sign-in flows, the rules on the keystore.
    public func accountBackend(keystore: (any Keystore)? = nil) -> LocalAccountBackend {
        LocalAccountBackend(
            accounts: accountStore(keystore: keystore), configStore: configStore, issuer: credentialIssuer, events: events,
            prompt: terminal)
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

    public func userPhoto() -> UserPhoto {
        UserPhoto(keystore: keystore, configStore: configStore, transport: transport, tokens: tokenRefresh())
    }

    public func gitCredential() -> GitCredential { GitCredential(keystore: keystore, tokens: tokenRefresh()) }

    public func accounts() -> Accounts { Accounts(keystore: keystore) }
}

import AuthCore
import Foundation

/// The use cases wired to a test environment's fakes, each given the ports it declares.
/// `keystore` replaces the environment's in-memory keystore (one that interferes, say).
extension TestEnvironment {
    public func accountStore(keystore: (any Keystore)? = nil) -> any AccountStore {
        KeystoreAccountStore(keystore: keystore ?? self.keystore, clock: environment.clock, random: environment.random)
    }

    public func tokenRefresh(keystore: (any Keystore)? = nil) -> TokenRefresh {
        TokenRefresh(
            keystore: keystore ?? self.keystore, configStore: environment.configStore, transport: environment.transport,
            clock: environment.clock, metadataCache: environment.metadataCache, secrets: environment.secrets)
    }

    public var tokenRevocation: TokenRevocation {
        TokenRevocation(
            configStore: environment.configStore, transport: environment.transport, clock: environment.clock,
            metadataCache: environment.metadataCache, secrets: environment.secrets)
    }

    public func signIn(keystore: (any Keystore)? = nil) -> SignIn {
        SignIn(
            accounts: accountStore(keystore: keystore), configStore: environment.configStore, issuer: environment.credentialIssuer,
            events: events)
    }

    public func link(keystore: (any Keystore)? = nil) -> Link {
        Link(
            accounts: accountStore(keystore: keystore), configStore: environment.configStore, issuer: environment.credentialIssuer,
            events: events, prompt: TerminalConsentPrompt(terminal))
    }

    public func reauthenticate(keystore: (any Keystore)? = nil) -> Reauthenticate {
        Reauthenticate(
            accounts: accountStore(keystore: keystore), configStore: environment.configStore, issuer: environment.credentialIssuer,
            events: events)
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
        UserPhoto(keystore: keystore, configStore: environment.configStore, transport: environment.transport, tokens: tokenRefresh())
    }

    public func gitCredential() -> GitCredential { GitCredential(keystore: keystore, tokens: tokenRefresh()) }

    public func accounts() -> Accounts { Accounts(keystore: keystore) }
}

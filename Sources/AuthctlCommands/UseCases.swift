import AuthCore

/// The use cases, each given the ports it declares, from the real implementations that
/// `Wiring.authEnvironment` chose.
extension AuthEnvironment {
    /// Each user's own backend (SPEC §9): the keystore's rules, or its Firebase project.
    var accountStore: any AccountStore {
        let environment = self
        return BackendAccountStore(
            local: KeystoreAccountStore(keystore: keystore, clock: clock, random: random), keystore: keystore,
            firebase: { try environment.firebaseAccountStore() })
    }
    var events: any AuthEventSink { TerminalEvents(terminal: terminal) }

    var tokenRefresh: TokenRefresh {
        var refresh = TokenRefresh(
            keystore: keystore, configStore: configStore, transport: transport, clock: clock, metadataCache: metadataCache,
            secrets: secrets, random: random)
        refresh.firebaseEmulatorHost = firebaseEmulatorHost
        return refresh
    }

    var tokenRevocation: TokenRevocation {
        TokenRevocation(
            configStore: configStore, transport: transport, clock: clock, metadataCache: metadataCache, secrets: secrets, random: random)
    }

    var workloadSignIn: WorkloadSignIn {
        WorkloadSignIn(
            keystore: keystore, configStore: configStore,
            grant: WorkloadGrant(transport: transport, clock: clock, metadataCache: metadataCache, secrets: secrets, random: random),
            clock: clock, random: random)
    }

    var signIn: SignIn { SignIn(accounts: accountStore, configStore: configStore, issuer: credentialIssuer, events: events) }

    var link: Link {
        Link(
            accounts: accountStore, configStore: configStore, issuer: credentialIssuer, events: events,
            prompt: TerminalConsentPrompt(terminal))
    }

    var reauthenticate: Reauthenticate {
        Reauthenticate(accounts: accountStore, configStore: configStore, issuer: credentialIssuer, events: events)
    }

    var unlink: Unlink { Unlink(accounts: accountStore, revocation: tokenRevocation) }
    var deleteUser: DeleteUser { DeleteUser(accounts: accountStore, revocation: tokenRevocation) }
    var signOut: SignOut { SignOut(accounts: accountStore, revocation: tokenRevocation) }
    var userPhoto: UserPhoto { UserPhoto(keystore: keystore, configStore: configStore, transport: transport, tokens: tokenRefresh) }
    var gitCredential: GitCredential { GitCredential(keystore: keystore, tokens: tokenRefresh) }

    func exec(runner: any ChildProcessRunner) -> Exec {
        Exec(tokens: tokenRefresh, clock: clock, random: random, events: events, runner: runner)
    }
}

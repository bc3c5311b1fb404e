import AuthCore

/// The Firebase backend's part of the composition root (SPEC §9): the emulator from the
/// environment, the client from config.json, the brokered sign-in wired to the same browser,
/// listener and events as the local flows.
extension Wiring {
    /// `FIREBASE_AUTH_EMULATOR_HOST` (as Firebase's own tools read it), loopback only; it
    /// overrides `--emulator`. Empty means unset.
    func firebaseEmulator() throws -> FirebaseEmulatorHost? {
        guard let value = environment["FIREBASE_AUTH_EMULATOR_HOST"], !value.isEmpty else { return nil }
        return try FirebaseEmulatorHost(parsing: value, from: .environment)
    }

    /// The Firebase sign-in when config.json's backend is Firebase; nil for the local backend.
    func firebaseSignIn(_ environment: AuthEnvironment) throws -> FirebaseSignIn? {
        guard let config = try environment.configStore.firebaseBackend() else { return nil }
        let client = try FirebaseAuthClient(
            config: config, emulator: try firebaseEmulator(), transport: environment.transport, clock: environment.clock)
        let terminal = environment.terminal
        let receivers =
            environment.redirectReceivers
            ?? SystemRedirectReceivers(clock: environment.clock, random: environment.random) {
                await terminal.readInput(prompt: PastedRedirectReceiver.prompt)
            }
        let flow = BrokeredSignIn(
            clock: environment.clock, random: environment.random, browser: environment.browser, receivers: receivers,
            events: environment.signInEvents)
        return FirebaseSignIn(client: client, keystore: environment.keystore, flow: flow, clock: environment.clock)
    }

    /// `login`, `link` or `reauth` through Firebase when it is the backend; nil for the local one.
    func firebaseAccountOperation(
        _ operation: FirebaseSignIn.Operation, provider: String?, flow: FlowArguments, credential: CredentialArguments,
        pending: String?, environment: AuthEnvironment
    ) async throws -> SignIn.Output? {
        guard let signIn = try firebaseSignIn(environment) else { return nil }
        if let pending {
            return try await signIn.runPending(operation, handle: pending)
        }
        guard let provider else { throw AuthError.invalidArgument("name the provider: \(command: .login, "PROVIDER")") }
        if credential.idToken != nil {
            let providerID = try ProviderID(parsing: provider)
            if providerID.rawValue == "microsoft.com" {
                // Refused before stdin is read (SPEC §9).
                return try await signIn.runIDToken(operation, providerID: providerID, idToken: "", rawNonce: nil)
            }
            return try await signIn.runIDToken(
                operation, providerID: providerID, idToken: try CredentialArguments.readStandardInput(self), rawNonce: credential.rawNonce)
        }
        return try await signIn.run(
            operation, providerID: try ProviderID(parsing: provider), options: try flow.flowOptions(environment: self.environment))
    }
}

extension AuthEnvironment {
    /// The configured Firebase project's account store; nil with the local backend.
    func firebaseAccountStore() throws -> FirebaseAccountStore? {
        guard let config = try configStore.firebaseBackend() else { return nil }
        let emulator = try firebaseEmulatorHost.map { try FirebaseEmulatorHost(parsing: $0, from: .environment) }
        let client = try FirebaseAuthClient(config: config, emulator: emulator, transport: transport, clock: clock)
        return FirebaseAccountStore(client: client, keystore: keystore, clock: clock)
    }
}

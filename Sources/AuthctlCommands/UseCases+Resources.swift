import AuthCore

/// The use cases of protected resources (docs/resources.md): `login URL`, `token --resource`,
/// `request`.
extension UseCases {
    var registrationSecrets: KeystoreRegistrationSecrets {
        KeystoreRegistrationSecrets(keystore: keystore, legacyPath: registrationSecretsPath)
    }

    var resourceTokens: ResourceTokens { ResourceTokens(keystore: keystore, configStore: configStore, tokens: tokens, clock: clock) }

    var resourceRequest: ResourceRequest {
        ResourceRequest(tokens: resourceTokens, transport: transport, random: random, clock: clock)
    }

    var resourceSignIn: ResourceSignIn {
        ResourceSignIn(
            transport: transport, configStore: configStore, issuer: credentialIssuer,
            accounts: KeystoreAccountStore(keystore: keystore, clock: clock, random: random), clock: clock,
            secrets: registrationSecrets, prompt: TerminalConsentPrompt(terminal))
    }
}

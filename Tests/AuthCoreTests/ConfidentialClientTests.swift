import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@Suite("Confidential clients: the secret by reference, sent as the provider asks", .serialized)
struct ConfidentialClientTests {
    let provider: FakeIdentityProvider
    let secret = "s3cr3t-\(UUID().uuidString)"

    init() throws { provider = try FakeIdentityProvider() }

    func signIn(_ test: TestEnvironment) async throws -> SignIn.Output {
        try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
    }

    @Test("client_secret_basic by default: sign-in and refresh authenticate with HTTP Basic")
    func basic() async throws {
        provider.update { $0.clientSecret = secret }
        let test = try await TestEnvironment(provider: provider, clientSecretEnv: "FAKE_SECRET", secrets: ["FAKE_SECRET": secret])
        #expect(try await signIn(test).isNewUser)
        #expect(try await test.tokenRefresh().run(.init(forceRefresh: true)).refreshed)
        #expect(!test.terminal.lines.joined().contains(secret))
    }

    @Test("client_secret_post when discovery offers only that")
    func post() async throws {
        provider.update {
            $0.clientSecret = secret
            $0.secretInBody = true
        }
        let test = try await TestEnvironment(provider: provider, clientSecretEnv: "FAKE_SECRET", secrets: ["FAKE_SECRET": secret])
        #expect(try await signIn(test).isNewUser)
    }

    @Test(
        "device code with a confidential client: the device authorization and every poll authenticate as the provider asks",
        arguments: [false, true])
    func deviceCode(secretInBody: Bool) async throws {
        provider.update {
            $0.clientSecret = secret
            $0.secretInBody = secretInBody
            $0.devicePolls = ["authorization_pending", "approve"]
        }
        let test = try await TestEnvironment(
            provider: provider, clock: FixedClock(Date()), clientSecretEnv: "FAKE_SECRET", secrets: ["FAKE_SECRET": secret])
        let output = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60, mode: .deviceCode)))
        #expect(output.isNewUser && provider.count("device") == 1 && provider.count("device-poll") == 2)
        #expect(!test.terminal.lines.joined().contains(secret))
    }

    @Test("a wrong secret is invalid-credential (invalid_client) and nothing is stored")
    func wrongSecret() async throws {
        provider.update { $0.clientSecret = secret }
        let test = try await TestEnvironment(provider: provider, clientSecretEnv: "FAKE_SECRET", secrets: ["FAKE_SECRET": "wrong"])
        await #expect { try await signIn(test) } throws: {
            ($0 as? AuthError)?.code == .invalidCredential && ($0 as? AuthError)?.details["oauthError"] == "invalid_client"
        }
        #expect(test.keystore.writes == 0)
    }

    @Test("an unset secret variable fails before the browser opens, naming the variable")
    func missingVariable() async throws {
        let test = try await TestEnvironment(provider: provider, clientSecretEnv: "FAKE_SECRET_UNSET")
        await #expect { try await signIn(test) } throws: {
            ($0 as? AuthError)?.code == .providerNotConfigured && ($0 as? AuthError)?.message.contains("FAKE_SECRET_UNSET") == true
        }
        #expect(provider.count("authorize") == 0)
    }
}

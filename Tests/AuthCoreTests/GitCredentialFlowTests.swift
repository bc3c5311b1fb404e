import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `git-credential get` against the in-process provider: which token git gets, and where not.
@Suite("git credential helper: get")
final class GitCredentialFlowTests {
    let provider: FakeIdentityProvider
    var directories: [String] = []

    init() throws { provider = try FakeIdentityProvider() }

    deinit { for directory in directories { try? FileManager.default.removeItem(atPath: directory) } }

    func signedIn() async throws -> TestEnvironment {
        let test = try await TestEnvironment(provider: provider)
        directories.append(test.directory)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
        return test
    }

    func get(_ test: TestEnvironment, _ text: String, scopes: [String] = []) async throws -> GitCredentialDescription {
        try await test.gitCredential().get(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), scopes: scopes, description: try GitCredentialDescription.parse(text)))
    }

    @Test("git gets the session's access token as the password, the identity's email as the username, and its expiry")
    func sessionToken() async throws {
        let test = try await signedIn()
        let tokens = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        let answer = try await get(test, "protocol=https\nhost=git.example.com\npath=team/repo.git\n")
        #expect(answer["password"] == tokens.accessToken)
        #expect(answer["username"] == "ada@example.com")
        let expiry = try #require(tokens.expiresAt)
        #expect(answer["password_expiry_utc"] == String(Int64(expiry.timeIntervalSince1970)))
    }

    @Test("with --scope git gets the per-scope token that token --scope caches: one refresh, then the cache")
    func scopedToken() async throws {
        let test = try await signedIn()
        let session = test.keystore.state.currentUser?.providerData.first?.tokens?.accessToken
        let first = try await get(test, "protocol=https\nhost=dev.azure.com\n", scopes: ["499b84ac-1321-427f-aa17-267ca6975798/.default"])
        let second = try await get(test, "protocol=https\nhost=dev.azure.com\n", scopes: ["499b84ac-1321-427f-aa17-267ca6975798/.default"])
        #expect(first["password"] != nil && first["password"] != session)
        #expect(second["password"] == first["password"])
        #expect(provider.count("refresh") == 1)
        let cached = test.keystore.state.currentUser?.providerData.first?.tokens?.additionalTokens?.values.first?.accessToken
        #expect(cached == first["password"])
    }

    @Test(
        "a token is never handed to a remote reached without TLS, nor to another protocol: plain http elsewhere, ssh, no protocol",
        arguments: [
            "protocol=http\nhost=git.example.com\n", "protocol=http\nhost=127.0.0.1.evil.example\n",
            "protocol=http\nhost=localhost.example:80\n",
            "protocol=ssh\nhost=git.example.com\n", "host=git.example.com\n",
        ])
    func refusesCleartext(text: String) async throws {
        let test = try await signedIn()
        await #expect { try await self.get(test, text) } throws: { ($0 as? AuthError)?.code == .invalidArgument }
    }

    @Test("http to this machine (a local server, a tunnel) is allowed", arguments: ["127.0.0.1:8080", "localhost", "[::1]:9418"])
    func loopbackHTTP(host: String) async throws {
        let test = try await signedIn()
        let answer = try await get(test, "protocol=http\nhost=\(host)\n")
        #expect(answer["password"]?.hasPrefix("at-") == true)
    }

    @Test("nobody signed in: get fails (git then asks its next helper) with no-current-user")
    func nobodySignedIn() async throws {
        let test = try await TestEnvironment(provider: provider)
        directories.append(test.directory)
        await #expect { try await self.get(test, "protocol=https\nhost=git.example.com\n") } throws: {
            ($0 as? AuthError)?.code == .noCurrentUser
        }
    }
}

import AuthCore
import AuthCoreTestSupport
import Crypto
import Foundation
import Testing

@testable import AuthCore

/// A person's configured client authenticated by `private_key_jwt` (`providers add
/// --client-certificate-file`, docs/configuration.md): the assertion, its audience, the
/// configuration's rules, and FAPI 2.0 for a person's sign-in.
@Suite("A configured client's private_key_jwt")
struct ConfiguredClientKeyTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A key file of the user's own, mode 0600, removed after the test.
    func keyFile(_ pem: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authctl-client-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("client.pem").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    func discovery() throws -> DiscoveryDocument {
        var document = DiscoveryDocument(
            issuer: "https://idp.example", authorizationEndpoint: try #require(URL(string: "https://idp.example/authorize")),
            tokenEndpoint: try #require(URL(string: "https://idp.example/token")),
            jwksURI: try #require(URL(string: "https://idp.example/jwks")))
        document.tokenEndpointAuthMethodsSupported = ["private_key_jwt"]
        document.dpopSigningAlgValuesSupported = ["ES256"]
        document.pushedAuthorizationRequestEndpoint = URL(string: "https://idp.example/par")
        document.authorizationResponseIssParameterSupported = true
        return document
    }

    func authenticator() -> ClientAuthenticator {
        ClientAuthenticator(
            clock: FixedClock(now), random: SeededRandom(seed: 5), secrets: StaticSecrets(),
            transport: StubTransport { _ in throw AuthError.internalError("no requests here") })
    }

    @Test(
        "the configured client signs an assertion with its key: iss = sub = client id, aud = the endpoint it goes to (the issuer under fapi2), kid"
    )
    func assertion() async throws {
        let key = P256.Signing.PrivateKey()
        let path = try keyFile(key.pemRepresentation)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var config = ProviderConfig(id: "oidc.example", clientID: "person-client", issuer: "https://idp.example")
        config.clientCertificateFile = path
        let document = try discovery()
        for fapi2 in [false, true] {
            config.profile = fapi2 ? "fapi2" : nil
            let provider = try ProviderRegistry.provider(for: config)
            let made = try await authenticator().authentication(for: .configured, provider: provider, discovery: document)
            guard case .assertion(let jwt) = made else {
                Issue.record("a configured client with a key file authenticates by an assertion, not \(made)")
                return
            }
            let (header, claims) = try #require(IDTokenClaims.unverifiedParts(of: jwt))
            #expect(header["alg"] == .string("ES256") && header["kid"] != nil)
            #expect(claims["iss"] == .string("person-client") && claims["sub"] == .string("person-client"))
            #expect(claims["aud"] == .string(fapi2 ? "https://idp.example" : "https://idp.example/token"))
            let parts = jwt.split(separator: ".")
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        }
        // Sent to another endpoint (a pushed request, a revocation): that endpoint is the audience,
        // which RFC 9126 §2 has every server accept at PAR; under fapi2 still the issuer alone.
        let par = try #require(URL(string: "https://idp.example/par"))
        for fapi2 in [false, true] {
            config.profile = fapi2 ? "fapi2" : nil
            let provider = try ProviderRegistry.provider(for: config)
            let made = try await authenticator().authentication(for: .configured, provider: provider, discovery: document, endpoint: par)
            guard case .assertion(let jwt) = made else { throw AuthError.internalError("no assertion") }
            #expect(IDTokenClaims.unverifiedParts(of: jwt)?.payload["aud"] == .string(fapi2 ? "https://idp.example" : par.absoluteString))
        }
        // Before discovery (the check before a browser opens), the key file is read and nothing is made.
        #expect(try await authenticator().configured(try ProviderRegistry.provider(for: config), discovery: nil) == .none)
    }

    @Test("a key file that is missing or readable by others fails before anything is sent, saying how to fix it")
    func unsafeKeyFile() async throws {
        let path = try keyFile(P256.Signing.PrivateKey().pemRepresentation)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(chmod(path, 0o644) == 0)
        var config = ProviderConfig(id: "oidc.example", clientID: "person-client", issuer: "https://idp.example")
        config.clientCertificateFile = path
        let provider = try ProviderRegistry.provider(for: config)
        await #expect {
            try await authenticator().configured(provider, discovery: nil)
        } throws: { error in "\((error as? AuthError)?.message ?? "")".contains("chmod 600") }
        config.clientCertificateFile = path + ".missing"
        await #expect(throws: AuthError.self) {
            try await authenticator().configured(try ProviderRegistry.provider(for: config), discovery: nil)
        }
    }

    @Test("the key file excludes a client secret, and Apple (whose client secret authctl signs) takes none")
    func validation() throws {
        var config = ProviderConfig(id: "oidc.example", clientID: "c", issuer: "https://idp.example")
        config.clientCertificateFile = "/keys/client.pem"
        try config.validate()
        config.clientSecretEnv = "SECRET"
        #expect(throws: AuthError.self) { try config.validate() }
        config.clientSecretEnv = nil
        config.clientSecretFile = "/keys/secret"
        #expect(throws: AuthError.self) { try config.validate() }
        var apple = ProviderConfig(id: "apple.com", clientID: "com.example.app")
        apple.clientCertificateFile = "/keys/client.pem"
        #expect(throws: AuthError.self) { try apple.validate() }
        config.clientSecretFile = nil
        config.clientCertificateFile = "relative\nline"
        #expect(throws: AuthError.self) { try config.validate() }
    }

    @Test("fapi2: a person's code flow is allowed with a key file (DPoP and PAR required); without one it is refused, naming the option")
    func fapi2Person() throws {
        var config = ProviderConfig(id: "oidc.example", clientID: "c", issuer: "https://idp.example", profile: "fapi2")
        let key = DPoPKey.generate(using: SeededRandom(seed: 9))
        #expect {
            try RequestProtection.decide(provider: try ProviderRegistry.provider(for: config), discovery: try discovery(), key: key)
        } throws: { error in "\((error as? AuthError)?.message ?? "")".contains("clientCertificateFile") }
        config.clientCertificateFile = "/keys/client.pem"
        let protection = try RequestProtection.decide(
            provider: try ProviderRegistry.provider(for: config), discovery: try discovery(), key: key)
        #expect(protection.proof == .required(key) && protection.pushEndpoint?.path == "/par" && protection.requiresIssuerOnRedirect)
    }
}

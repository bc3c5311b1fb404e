import AuthCore
import AuthCoreTestSupport
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import AuthCore

/// The workload's rules and messages on pure values (docs/ci.md): its account is
/// of its own kind, the grant's request, the `private_key_jwt` assertion.
@Suite("Workloads: account rules, grant request, client assertion")
struct WorkloadTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let client = WorkloadClient(clientID: "app-1", authentication: .secretEnvironment("CI_SECRET"), scopes: ["api.read"])

    func workloadCredential(_ client: WorkloadClient? = nil) -> Credential {
        var credential = Credential(
            providerID: "oidc.a", issuer: "https://oidc.a.example", federatedID: "app-1", profile: Profile(),
            tokens: TokenSet(
                accessToken: "wat-1", expiresAt: now.addingTimeInterval(3600), refreshToken: nil, idToken: nil, scopes: ["api.read"]),
            claims: IDTokenClaims(raw: [:]))
        credential.workload = client ?? self.client
        return credential
    }

    func personCredential(subject: String) -> Credential {
        Credential(
            providerID: "oidc.a", issuer: "https://oidc.a.example", federatedID: subject,
            profile: Profile(email: "ada@example.com", emailVerified: true),
            tokens: TokenSet(accessToken: "at", expiresAt: nil, refreshToken: "rt", idToken: nil, scopes: ["openid"]),
            claims: IDTokenClaims(raw: [:]))
    }

    func context(_ uid: String) -> AccountRules.Context { AccountRules.Context(now: now, newUID: uid, newHandle: "pc_handle0000000000001") }

    @Test("a workload signs in to a user of kind workload, and again to the same one; its authentication source is replaced")
    func signInAgain() throws {
        var state = AccountState()
        let first = try AccountRules.signInWorkload(&state, with: workloadCredential(), context: context("uid-w"))
        #expect(first.isNewUser && first.user.kind == .workload && first.user.providerData.first?.workload == client)
        var moved = client
        moved.authentication = .federatedTokenFile("/run/token")
        let again = try AccountRules.signInWorkload(&state, with: workloadCredential(moved), context: context("uid-other"))
        #expect(!again.isNewUser && again.user.uid == "uid-w" && state.users.count == 1)
        #expect(state.users.first?.providerData.first?.workload?.authentication == .federatedTokenFile("/run/token"))
    }

    @Test("a person and a workload with the same identity key are never merged, in either order")
    func neverMerged() throws {
        var state = AccountState()
        _ = try AccountRules.signInWorkload(&state, with: workloadCredential(), context: context("uid-w"))
        let person = try AccountRules.signIn(&state, with: personCredential(subject: "app-1"), context: context("uid-p")).get()
        #expect(person.isNewUser && person.user.uid == "uid-p" && person.user.kind == .person)

        var other = AccountState()
        _ = try AccountRules.signIn(&other, with: personCredential(subject: "app-1"), context: context("uid-p")).get()
        let workload = try AccountRules.signInWorkload(&other, with: workloadCredential(), context: context("uid-w"))
        #expect(workload.isNewUser && workload.user.uid == "uid-w")
    }

    @Test("link and reauth refuse a workload with invalid-argument, before and when the rules apply")
    func linkAndReauthRefused() throws {
        var state = AccountState()
        _ = try AccountRules.signInWorkload(&state, with: workloadCredential(), context: context("uid-w"))
        #expect(throws: AuthError.self) { try AccountRules.checkCanLink(state, providerID: "oidc.b") }
        #expect(throws: AuthError.self) { try AccountRules.checkCanReauthenticate(state, providerID: "oidc.a") }
        do {
            try AccountRules.checkCanLink(state, providerID: "oidc.b")
        } catch let error as AuthError {
            #expect(error.code == .invalidArgument && error.message.description.contains("is a workload"))
        }
        var copy = state
        #expect(throws: AuthError.self) { try AccountRules.reauthenticate(&copy, with: workloadCredential(), now: now) }
        #expect(copy == state)
    }

    @Test("the grant's request: grant_type=client_credentials, scope, and a jwt-bearer assertion in the body")
    func request() throws {
        let endpoint = try #require(URL(string: "https://idp.example/token"))
        let request = TokenRequest(
            tokenEndpoint: endpoint, clientID: "app-1", grant: .clientCredentials(scopes: ["a", "b"]), authentication: .assertion("x.y.z"))
        let form = Dictionary(
            FormURLEncoding.decode(String(decoding: request.httpRequest.body ?? Data(), as: UTF8.self)) ?? [], uniquingKeysWith: { $1 })
        #expect(form["grant_type"] == "client_credentials" && form["scope"] == "a b" && form["client_id"] == "app-1")
        #expect(
            form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" && form["client_assertion"] == "x.y.z"
        )
        #expect(request.httpRequest.headers["Authorization"] == nil)
    }

    @Test("private_key_jwt: iss = sub = client id, aud = token endpoint, unique jti, exp within 10 minutes, x5t#S256 when asked")
    func assertion() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let certificate = Data([0x30, 0x03, 0x02, 0x01, 0x01])
        let pem = key.pemRepresentation + "\n-----BEGIN CERTIFICATE-----\n\(certificate.base64EncodedString())\n-----END CERTIFICATE-----\n"
        let endpoint = try #require(URL(string: "https://idp.example/tenant/token"))
        let jwt = try await ClientAssertion.signed(
            pem: pem, path: "app.pem", clientID: "app-1", audience: endpoint, jti: "jti-1", now: now, certificateThumbprint: true)
        let (header, claims) = try #require(IDTokenClaims.unverifiedParts(of: jwt))
        #expect(header["alg"] == .string("RS256"))
        #expect(header["x5t#S256"] == .string(Base64URL.encode(Data(SHA256.hash(data: certificate)))))
        #expect(claims["iss"] == .string("app-1") && claims["sub"] == .string("app-1") && claims["jti"] == .string("jti-1"))
        #expect(claims["aud"] == .string("https://idp.example/tenant/token"))
        guard case .number(let exp)? = claims["exp"] else { throw AuthError.internalError("no exp") }
        #expect(exp > now.timeIntervalSince1970 && exp <= now.timeIntervalSince1970 + 600)
        let parts = jwt.split(separator: ".")
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(
            key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: Data("\(parts[0]).\(parts[1])".utf8)),
                padding: .insecurePKCS1v1_5))

        let pss = try await ClientAssertion.signed(
            pem: pem, path: "app.pem", clientID: "app-1", audience: endpoint, jti: "jti-3", now: now, certificateThumbprint: false,
            algorithm: "PS256")
        let pssParts = pss.split(separator: ".")
        #expect(IDTokenClaims.unverifiedParts(of: pss)?.header["alg"] == .string("PS256"))
        #expect(
            key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: try #require(Base64URL.decode(pssParts[2]))),
                for: SHA256.hash(data: Data("\(pssParts[0]).\(pssParts[1])".utf8)), padding: .PSS))

        let ec = P256.Signing.PrivateKey()
        let es = try await ClientAssertion.signed(
            pem: ec.pemRepresentation, path: "ec.pem", clientID: "app-1", audience: endpoint, jti: "jti-2", now: now,
            certificateThumbprint: false)
        #expect(IDTokenClaims.unverifiedParts(of: es)?.header["alg"] == .string("ES256"))
        await #expect(throws: AuthError.self) {
            try await ClientAssertion.signed(
                pem: ec.pemRepresentation, path: "ec.pem", clientID: "a", audience: endpoint, jti: "j", now: now,
                certificateThumbprint: true)
        }
        await #expect(throws: AuthError.self) {
            try await ClientAssertion.signed(
                pem: "not a pem", path: "x.pem", clientID: "a", audience: endpoint, jti: "j", now: now, certificateThumbprint: false)
        }
    }

    @Test("a federated token must look like a JWT before it is sent")
    func federatedShape() {
        #expect(throws: Never.self) { try FederatedAssertion.checkShape("aGVhZA.Ym9keQ.c2ln", source: "t") }
        for bad in ["", "a.b", "<html>.x.y", "a..b.c", String(repeating: "a", count: 70_000) + ".b.c"] {
            #expect(throws: AuthError.self) { try FederatedAssertion.checkShape(bad, source: "t") }
        }
    }

    @Test("microsoft.com needs no providers add for a workload (the tenant and client id are given); oidc.* needs its issuer")
    func microsoftDefaults() throws {
        let store = ConfigStore(storage: InMemoryConfigStorage())
        let config = try store.workloadProvider(ProviderID(parsing: "microsoft"))
        #expect(config.id == "microsoft.com" && config.clientID == nil)
        #expect(throws: AuthError.self) { try store.workloadProvider(ProviderID(parsing: "oidc.corp")) }
        #expect(throws: AuthError.self) { try store.provider(ProviderID(parsing: "microsoft")) }
    }

    @Test("Apple has no client-credentials grant: refused before anything is sent")
    func appleRefused() throws {
        let config = ProviderConfig(
            id: "apple.com", clientID: "com.example.app", teamID: "ABCDE12345", keyID: "KEY1234567", privateKeyFile: "/k.p8")
        let error = #expect(throws: AuthError.self) {
            try WorkloadGrant.provider(config, for: WorkloadClient(clientID: "c", authentication: .secretEnvironment("S")))
        }
        #expect(
            error?.code == .invalidArgument && error?.message.description.contains("people only") == true,
            "\(String(describing: error?.message))")
    }
}

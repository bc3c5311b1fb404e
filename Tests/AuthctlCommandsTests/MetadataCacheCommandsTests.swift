import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The provider metadata cache (`$XDG_CACHE_HOME/authctl`) against a hostile provider the
/// user signed in to once (issue 22, item 1).
@Suite("provider metadata cache against a hostile provider", .serialized)
final class MetadataCacheCommandsTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test(
        "a hostile provider's key set whose URL ends like another provider's discovery URL never takes that provider's place: its refresh goes to its own token endpoint"
    )
    func keySetURLCollidingWithDiscoveryURL() async throws {
        // The victim serves under a long path, as gateways and multi-tenant providers do.
        let victim = try FakeIdentityProvider(basePath: "/tenants/" + String(repeating: "v", count: 160))
        let attacker = try FakeIdentityProvider()
        let victimDiscovery = victim.issuer + "/.well-known/openid-configuration"
        // The attacker's key set URL ends with the victim's discovery URL, padded so that the
        // two URLs' base64 encodings line up: their long tails are then equal.
        var jwksPath = "/keys/"
        while (attacker.server.baseURL.utf8.count + jwksPath.utf8.count + victimDiscovery.utf8.count) % 3 != victimDiscovery.utf8.count % 3
        {
            jwksPath += "k"
        }
        jwksPath += victimDiscovery
        // Its key set is also a discovery document that claims the victim's issuer and names
        // the attacker's token endpoint.
        attacker.behaviour.jwksPath = jwksPath
        attacker.behaviour.jwksExtraMembers = [
            "issuer": .string(victim.issuer), "authorization_endpoint": .string(attacker.issuer + "/authorize"),
            "token_endpoint": .string(attacker.issuer + "/token"), "jwks_uri": .string(victim.issuer + "/jwks"),
            "response_types_supported": .array([.string("code")]), "subject_types_supported": .array([.string("public")]),
            "id_token_signing_alg_values_supported": .array([.string("RS256")]),
        ]
        for (id, provider) in [("oidc.victim", victim), ("oidc.attacker", attacker)] {
            let added = try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let victimLogin = try await authctl.run(["login", "oidc.victim", "--timeout", "120"])
        #expect(victimLogin.status == 0, "\(victimLogin.stderr)")
        let attackerLogin = try await authctl.run(["link", "oidc.attacker", "--timeout", "120"])
        #expect(attackerLogin.status == 0, "\(attackerLogin.stderr)")
        #expect(attacker.count("jwks") >= 1)
        let attackerTokenRequests = attacker.count("token")

        let refreshed = try await authctl.run(["token", "oidc.victim", "--force-refresh"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(attacker.count("token") == attackerTokenRequests, "the victim's refresh token went to the attacker")
        #expect(victim.count("refresh") == 1)
    }

    @Test("a cache entry is found by a digest of its whole URL and carries that URL: two URLs with one long tail never share an entry")
    func entriesOfURLsWithOneTail() throws {
        let directory = authctl.home + "/cache"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cache = FileMetadataCache(directory: directory, random: SystemRandomSource())
        let tail = String(repeating: "t", count: 400)
        guard let first = URL(string: "https://a.example/" + tail), let second = URL(string: "https://bbb.example/" + tail) else {
            Issue.record("the URLs did not parse")
            return
        }
        cache.store(
            CachedDocument(
                url: first, kind: .discovery, issuer: "https://a.example", fetchedAt: Date(timeIntervalSince1970: 1_000),
                body: Data("{}".utf8)))
        #expect(cache.load(first)?.body == Data("{}".utf8))
        #expect(cache.load(second) == nil)
        // An entry copied to another URL's file is refused: it names the URL it came from.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        cache.store(
            CachedDocument(
                url: second, kind: .discovery, issuer: "https://bbb.example", fetchedAt: Date(timeIntervalSince1970: 1_000),
                body: Data("[]".utf8)))
        let both = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
        #expect(both.count == 2)
        let contents = try both.map { try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
        for (name, bytes) in zip(both, contents.reversed()) { try bytes.write(to: URL(fileURLWithPath: directory + "/" + name)) }
        #expect(cache.load(first) == nil)
        #expect(cache.load(second) == nil)
    }
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl doctor [PROVIDER|URL] [--json]` (issue 25, item 21): one line per check, each
/// problem with its fix; exit 0 without a problem, else the exit status of the first
/// problem's kind (docs/exit-codes.md).
@Suite("authctl doctor")
struct DoctorTests {
    static func checks(_ result: InProcessAuthctl.Result) -> [String: (status: String, fix: String?)] {
        guard case .array(let items)? = try? JSONDecoder().decode(JSONValue.self, from: Data(result.stdout.utf8)) else { return [:] }
        var found: [String: (String, String?)] = [:]
        for case .object(let item) in items {
            if case .string(let check)? = item["check"], case .string(let status)? = item["status"] {
                if case .string(let fix)? = item["fix"] { found[check] = (status, fix) } else { found[check] = (status, nil) }
            }
        }
        return found
    }

    static func added(_ provider: FakeIdentityProvider) async throws -> InProcessAuthctl {
        let authctl = InProcessAuthctl()
        try await authctl.addFakeProvider(provider)
        return authctl
    }

    @Test("a good provider: discovery, keys, PKCE, redirect registration and clock are ok, and doctor exits 0")
    func good() async throws {
        let provider = try FakeIdentityProvider()
        provider.update { $0.dateOffset = 0 }
        let authctl = try await Self.added(provider)
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["doctor", "oidc.fake", "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let checks = Self.checks(result)
        for name in ["discovery", "signing-algorithms", "pkce", "keys", "redirect", "clock", "config", "keystore"] {
            #expect(checks[name]?.status == "ok", "\(name): \(result.stdout)")
        }
        #expect(provider.lastAuthorizationRequest["code_challenge_method"] == "S256")
        let text = try await authctl.run(["doctor", "oidc.fake"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ok") && text.stdout.contains("redirect"), "\(text.stdout)")
        #expect(try await authctl.run(["status"]).status == 16, "doctor signed nobody in")
    }

    @Test("a discovery document naming another issuer is a problem with the fix, and doctor exits 7")
    func lyingIssuer() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = try await Self.added(provider)
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        provider.update { $0.discoveryIssuer = "https://other.example" }
        let result = try await authctl.run(["doctor", "oidc.fake", "--json"])
        #expect(result.status == 7, "\(result.stdout)\(result.stderr)")
        let discovery = Self.checks(result)["discovery"]
        #expect(discovery?.status == "problem")
        #expect(discovery?.fix?.contains("https://other.example") == true, "\(result.stdout)")
    }

    @Test("a provider that refuses authctl's loopback redirect URI is a problem naming the URI to register; exit 7")
    func refusedRedirect() async throws {
        let provider = try FakeIdentityProvider()
        provider.update { $0.refuseRedirectURI = true }
        let authctl = try await Self.added(provider)
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["doctor", "oidc.fake", "--json"])
        #expect(result.status == 7, "\(result.stdout)\(result.stderr)")
        let redirect = Self.checks(result)["redirect"]
        #expect(redirect?.status == "problem", "\(result.stdout)")
        #expect(redirect?.fix?.contains("http://127.0.0.1") == true, "\(result.stdout)")
    }

    @Test("a provider whose Date header is 10 minutes off is a clock problem (ID tokens would be refused); exit 4")
    func skewedClock() async throws {
        let provider = try FakeIdentityProvider()
        provider.update { $0.dateOffset = 600 }
        let authctl = try await Self.added(provider)
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["doctor", "oidc.fake", "--json"])
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        #expect(Self.checks(result)["clock"]?.status == "problem", "\(result.stdout)")
    }

    @Test("an issuer URL can be checked before it is configured; a proxy that would catch it is a warning")
    func url() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["doctor", provider.issuer, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Self.checks(result)["discovery"]?.status == "ok", "\(result.stdout)")
        let proxied = try await authctl.run(
            ["doctor", "https://idp.invalid", "--json"], environment: ["https_proxy": "http://127.0.0.1:1"])
        #expect(Self.checks(proxied)["proxy"]?.status == "warning", "\(proxied.stdout)")
        #expect(proxied.status == 3, "\(proxied.stdout)\(proxied.stderr)")
    }

    @Test("the browser check names what would open: nothing without a display or $BROWSER (a warning), $BROWSER when it is set")
    func browser() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let headless = try await authctl.run(["doctor", "--json"])
        #expect(Self.checks(headless)["browser"]?.status == "warning", "\(headless.stdout)")
        #expect(headless.status == 0, "a warning is no problem: \(headless.stdout)")
        let chosen = try await authctl.run(["doctor", "--json"], environment: ["BROWSER": "true"])
        #expect(Self.checks(chosen)["browser"]?.status == "ok", "\(chosen.stdout)")
        let missing = try await authctl.run(["doctor", "--json"], environment: ["BROWSER": "no-such-browser-xyz"])
        #expect(Self.checks(missing)["browser"]?.status == "warning", "\(missing.stdout)")
    }

    @Test("a keystore sealed with the keyring in a session without a D-Bus session bus is a keystore problem (exit 6)")
    func keyringWithoutBus() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["doctor", "--json"], environment: ["AUTHCTL_KEYSTORE_KEYRING": "1"])
        #expect(Self.checks(result)["keyring"]?.status == "problem", "\(result.stdout)")
        #expect(result.status == 6, "\(result.stdout)\(result.stderr)")
        let plain = try await authctl.run(["doctor", "--json"])
        #expect(Self.checks(plain)["keyring"]?.status == "ok", "\(plain.stdout)")
    }
}

import Testing

@testable import CachedTokenCore

/// `status` as the cached-token core answers it (`CachedStatusAnswer`). Tests/Front/agreement.py
/// holds these bytes to the full program's on every keystore the tests know; here, the rules.
@Suite struct CachedStatusAnswerTests {
    static let now = 1_800_000_000.0

    static func user(tokens: CachedTokens?, grants: [CachedGrant] = []) -> CachedUser {
        let identity = CachedIdentity(
            providerId: "oidc.corp", issuer: "https://id.example", federatedId: "f-1", tokens: tokens, email: "ada@example.com",
            displayName: "Ada")
        var user = CachedUser(
            uid: "u-1", lastProviderId: "oidc.corp", providerData: [identity], email: "ada@example.com", resourceGrants: grants)
        user.profile.displayName = "Ada L."
        user.profile.createdAt = 1_700_000_000
        user.profile.lastSignInAt = 1_700_000_000
        user.profile.lastAuthAt = 1_700_000_000
        return user
    }

    static func tokens(expiresIn: Double?, refresh: Bool = true, type: String = "Bearer") -> CachedTokens {
        CachedTokens(
            accessToken: "at", tokenType: type, expiresAt: expiresIn.map { now + $0 }, hasRefreshToken: refresh, idToken: nil,
            scopes: ["openid"], needsSignInSince: nil, sealed: nil)
    }

    static func text(_ user: CachedUser) -> String? {
        CachedStatusAnswer.bytes(CachedStatusAnswer.Request(), user: user, now: now).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("status, --json, --keystore and --config once each; everything else is the full program's")
    func request() {
        #expect(CachedStatusAnswer.Request.parse(["status"]) == CachedStatusAnswer.Request())
        #expect(
            CachedStatusAnswer.Request.parse(["status", "--keystore=/k", "--json", "--config", "/c"])
                == CachedStatusAnswer.Request(keystore: "/k", config: "/c", json: true))
        for arguments in [
            ["status", "--check"], ["status", "--user", "u"], ["status", "-v"], ["status", "-q"], ["status", "--json", "--json"],
            ["status", "--keystore", "/a", "--keystore=/b"], ["status", "oidc.corp"], ["status", "--format", "raw"],
            ["status", "--id-token"],
            ["status", "--json=1"], ["status", "--help"], ["status", "--"], ["token"], ["--json", "status"],
        ] {
            #expect(CachedStatusAnswer.Request.parse(arguments) == nil, "\(arguments)")
        }
    }

    @Test("an identity's state in words: lifetime, refreshable, DPoP, ID token only, needs sign-in, signed out")
    func states() throws {
        let lines = try #require(Self.text(Self.user(tokens: Self.tokens(expiresIn: 3 * 3600 + 125.5))))
        #expect(
            lines == """
                Signed in as ada@example.com (Ada L.)
                  uid:        u-1
                  last login: 2023-11-14T22:13:20Z with oidc.corp
                  oidc.corp: ada@example.com — access token valid for 3 h 2 min, refreshable

                """)
        func state(_ tokens: CachedTokens?) -> String? {
            CachedStatusAnswer.state(of: Self.user(tokens: tokens).providerData[0], now: Self.now)
        }
        #expect(state(Self.tokens(expiresIn: 119.9)) == "access token valid for 119 s, refreshable")
        #expect(state(Self.tokens(expiresIn: 0.5, refresh: false)) == "access token expired, not refreshable")
        #expect(state(Self.tokens(expiresIn: nil, type: "dpop")) == "access token (lifetime unknown), refreshable, DPoP-bound")
        #expect(state(nil) == "signed out")
        var idOnly = Self.tokens(expiresIn: 60)
        idOnly.accessToken = nil
        #expect(state(idOnly) == "ID token only (signed in with --id-token), not refreshable")
        var refused = Self.tokens(expiresIn: 600)
        refused.needsSignInSince = Self.now - 60
        #expect(
            state(refused)
                == "needs sign-in since 2027-01-15T07:59:00Z: oidc.corp refused the refresh token (invalid_grant); the access token is valid for 10 min more. Sign in again: authctl login oidc.corp"
        )
    }

    @Test("--json: sorted keys, ' : ', an empty list as the encoder writes it, quotes and backslashes escaped")
    func json() throws {
        var user = Self.user(tokens: nil)
        user.profile.displayName = #"a "b" \ c"#
        let text = try #require(
            CachedStatusAnswer.bytes(CachedStatusAnswer.Request(json: true), user: user, now: Self.now).map {
                String(decoding: $0, as: UTF8.self)
            })
        #expect(text.hasPrefix("{\n  \"signedIn\" : true,\n  \"user\" : {\n    \"backend\" : {\n      \"kind\" : \"local\"\n    },\n"))
        #expect(text.contains(#"    "displayName" : "a \"b\" \\ c","#))
        #expect(text.contains("    \"resourceGrants\" : [\n\n    ],\n    \"uid\" : \"u-1\"\n  }\n}\n"))
        #expect(text.contains("        \"accessTokenExpiresAt\" : null,\n"))
    }

    @Test("a text the full program would escape, a sealed keystore, a date before 1970 in JSON: the full program's")
    func handedOver() {
        for unsafe in ["a\u{1B}b", "a\tb", "a\u{7F}", "a\u{85}", "a\u{61C}", "a\u{200E}", "a\u{2028}", "a\u{202E}", "a\u{2067}"] {
            var user = Self.user(tokens: nil)
            user.profile.displayName = unsafe
            #expect(Self.text(user) == nil, "\(unsafe.unicodeScalars.map(\.value))")
        }
        for plain in ["Jos\u{E9}", "\u{6771}\u{4EAC}", "a\u{200D}b", "\u{1F600}", "a\u{A0}b", "\u{2030}"] {
            #expect(CachedStatusAnswer.isPlain(plain), "\(plain.unicodeScalars.map(\.value))")
        }
        var sealed = Self.user(tokens: Self.tokens(expiresIn: 60))
        sealed.fromSealedKeystore = true
        #expect(Self.text(sealed) == nil)
        var old = Self.user(tokens: nil)
        old.profile.createdAt = -1
        #expect(Self.text(old) != nil)
        #expect(CachedStatusAnswer.bytes(CachedStatusAnswer.Request(json: true), user: old, now: Self.now) == nil)
    }
}

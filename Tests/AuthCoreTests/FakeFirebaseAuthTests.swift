import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The fake Identity Toolkit behaves as the service does: the test holds it to the REST
/// contract (docs/firebase.md) over real HTTP, a browser played by following the provider's redirect.
@Suite("The fake Firebase Authentication service", .serialized)
struct FakeFirebaseAuthTests {
    let firebase: FakeFirebaseAuth
    let provider: FakeIdentityProvider
    let transport = CurlTransport(timeout: 10, environment: [:])

    init() throws {
        firebase = try FakeFirebaseAuth()
        provider = try FakeIdentityProvider()
        firebase.enable("oidc.corp", provider: provider, clientSecret: "console-secret-\(UUID().uuidString)")
    }

    func call(_ method: String, _ body: [String: JSONValue], key: String? = nil, version: String = "v1") async throws
        -> (status: Int, body: [String: JSONValue])
    {
        let url = URL(
            string: "\(firebase.baseURL)/identitytoolkit.googleapis.com/\(version)/accounts:\(method)?key=\(key ?? firebase.apiKey)")!
        let data = try JSONEncoder().encode(JSONValue.object(body))
        let response = try await transport.send(
            HTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/json"], body: data))
        return (response.status, JSONValue.object(from: response.body) ?? [:])
    }

    func errorMessage(_ body: [String: JSONValue]) -> String? { body["error"]?.objectValue?["message"]?.stringValue }

    /// createAuthUri, the browser at the provider (one 302 back), then signInWithIdp.
    func signIn(_ extra: [String: JSONValue] = [:], providerID: String = "oidc.corp") async throws -> (
        status: Int, body: [String: JSONValue]
    ) {
        let continueURI = "http://localhost:53682/callback"
        let created = try await call(
            "createAuthUri", ["providerId": .string(providerID), "continueUri": .string(continueURI), "oauthScope": "email profile"])
        #expect(created.status == 200, "\(created.body)")
        let authURI = try #require(created.body["authUri"]?.stringValue)
        let sessionID = try #require(created.body["sessionId"]?.stringValue)
        let redirect = try await transport.send(HTTPRequest(url: URL(string: authURI)!))
        let callback = try #require(redirect.header("Location"))
        var body: [String: JSONValue] = [
            "requestUri": .string(callback), "sessionId": .string(sessionID), "returnSecureToken": true, "returnIdpCredential": true,
        ]
        body.merge(extra) { $1 }
        return try await call("signInWithIdp", body)
    }

    @Test("the key is checked: none is a 403, a wrong one API_KEY_INVALID; errors have the service's shape")
    func apiKey() async throws {
        let wrong = try await call("lookup", ["idToken": "x"], key: "AIzaWrong")
        #expect(wrong.status == 400)
        let details = wrong.body["error"]?.objectValue?["details"]?.arrayValue?.first?.objectValue
        #expect(details?["reason"] == "API_KEY_INVALID")
        let url = URL(string: "\(firebase.baseURL)/identitytoolkit.googleapis.com/v1/accounts:lookup")!
        let none = try await transport.send(HTTPRequest(method: "POST", url: url, body: Data("{}".utf8)))
        #expect(none.status == 403)
        let invalid = try await call("lookup", ["idToken": "not-a-token"])
        #expect(invalid.status == 400)
        #expect(errorMessage(invalid.body) == "INVALID_ID_TOKEN")
        #expect(invalid.body["error"]?.objectValue?["code"] == .number(400))
    }

    @Test("a brokered sign-in: the code is exchanged at the provider with the console's secret; an RS256 Firebase ID token")
    func brokeredSignIn() async throws {
        let result = try await signIn()
        #expect(result.status == 200, "\(result.body)")
        #expect(result.body["isNewUser"] == true)
        #expect(result.body["expiresIn"] == "3600")
        #expect(result.body["oauthAccessToken"]?.stringValue?.hasPrefix("at-") == true)
        #expect(provider.count("token") == 1)
        let localID = try #require(result.body["localId"]?.stringValue)
        let idToken = try #require(result.body["idToken"]?.stringValue)
        let claims = try #require(Self.claims(idToken))
        #expect(claims["iss"] == .string("https://securetoken.google.com/\(firebase.projectID)"))
        #expect(claims["aud"] == .string(firebase.projectID))
        #expect(claims["sub"] == .string(localID))
        // Signed with the project's published key, as the Admin SDK's verifyIdToken checks.
        let validated = try await IDTokenValidator().validate(
            idToken,
            expectations: IDTokenExpectations(
                issuer: "https://securetoken.google.com/\(firebase.projectID)", clientID: firebase.projectID, nonce: nil, now: Date()),
            keys: firebase.keySet)
        #expect(validated.subject == localID)
        // The same identity again: the same user, not new.
        let again = try await signIn()
        #expect(again.body["localId"] == .string(localID))
        #expect(again.body["isNewUser"] == false)
    }

    @Test("a redirect whose state differs, or a session used twice, is INVALID_IDP_RESPONSE")
    func stateAndSession() async throws {
        provider.update { $0.forgedState = "forged" }
        let forged = try await signIn()
        #expect(forged.status == 400)
        #expect(errorMessage(forged.body)?.hasPrefix("INVALID_IDP_RESPONSE : ") == true)
        let unknown = try await call("signInWithIdp", ["requestUri": "http://localhost:1/callback?code=x&state=y", "sessionId": "nope"])
        #expect(errorMessage(unknown.body)?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        let notEnabled = try await call("createAuthUri", ["providerId": "oidc.other", "continueUri": "http://localhost:1/callback"])
        #expect(errorMessage(notEnabled.body)?.hasPrefix("OPERATION_NOT_ALLOWED") == true)
    }

    @Test("securetoken refreshes; a revoked session is TOKEN_EXPIRED, a disabled user USER_DISABLED")
    func refreshRevokeDisable() async throws {
        let result = try await signIn()
        let refreshToken = try #require(result.body["refreshToken"]?.stringValue)
        let localID = try #require(result.body["localId"]?.stringValue)
        func refresh() async throws -> (Int, [String: JSONValue]) {
            let url = URL(string: "\(firebase.baseURL)/securetoken.googleapis.com/v1/token?key=\(firebase.apiKey)")!
            let response = try await transport.send(
                HTTPRequest.form(url, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]).handedOver())
            return (response.status, JSONValue.object(from: response.body) ?? [:])
        }
        let (status, body) = try await refresh()
        #expect(status == 200)
        #expect(body["user_id"] == .string(localID))
        #expect(body["expires_in"] == "3600")
        firebase.setDisabled(localID)
        #expect(errorMessage(try await refresh().1) == "USER_DISABLED")
        firebase.setDisabled(localID, false)
        firebase.revokeSessions(of: localID)
        #expect(errorMessage(try await refresh().1) == "TOKEN_EXPIRED")
        let idToken = try #require(result.body["idToken"]?.stringValue)
        #expect(errorMessage(try await call("lookup", ["idToken": .string(idToken)]).body) == "TOKEN_EXPIRED")
    }

    @Test("one account per email: needConfirmation with a pendingToken that links later; an identity linked once")
    func accountRules() async throws {
        let first = try await signIn()
        let firstToken = try #require(first.body["idToken"]?.stringValue)
        // Another provider, another subject, the same verified email.
        let other = try FakeIdentityProvider()
        other.update { $0.subject = "other-subject" }
        firebase.enable("oidc.other", provider: other)
        let conflict = try await signIn(providerID: "oidc.other")
        #expect(conflict.status == 200)
        #expect(conflict.body["needConfirmation"] == true)
        #expect(conflict.body["idToken"] == nil)
        #expect(conflict.body["verifiedProvider"] == ["oidc.corp"])
        let pendingToken = try #require(conflict.body["pendingToken"]?.stringValue)
        // The first user links the pending credential.
        let linked = try await call(
            "signInWithIdp",
            [
                "requestUri": "http://localhost", "pendingToken": .string(pendingToken), "idToken": .string(firstToken),
                "returnSecureToken": true,
            ])
        #expect(linked.status == 200, "\(linked.body)")
        #expect(linked.body["localId"] == first.body["localId"])
        #expect(firebase.users.first?.identities.map(\.providerID) == ["oidc.corp", "oidc.other"])
        // A second user cannot link an identity the first has.
        provider.update {
            $0.subject = "second"; $0.email = "second@example.com"
        }
        let second = try await signIn()
        let secondToken = try #require(second.body["idToken"]?.stringValue)
        let taken = try await signIn(["idToken": .string(secondToken)], providerID: "oidc.other")
        #expect(taken.status == 200)
        #expect(taken.body["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(taken.body["pendingToken"] != nil)
        let plain = try await signIn(["idToken": .string(secondToken), "returnIdpCredential": false], providerID: "oidc.other")
        #expect(plain.status == 400)
        #expect(errorMessage(plain.body) == "FEDERATED_USER_ID_ALREADY_LINKED")
        // autoCreate false for an unknown identity.
        provider.update {
            $0.subject = "stranger"; $0.email = "stranger@example.com"
        }
        #expect(errorMessage(try await signIn(["autoCreate": false]).body) == "USER_NOT_FOUND")
        #expect(
            errorMessage(try await call("signInWithIdp", ["requestUri": "http://localhost", "pendingToken": "pt-unknown"]).body)
                == "INVALID_PENDING_TOKEN")
    }

    @Test("delete needs a recent sign-in; unlink removes the provider; revokeToken is recorded")
    func deleteUnlinkRevoke() async throws {
        let result = try await signIn()
        let idToken = try #require(result.body["idToken"]?.stringValue)
        let unlinked = try await call("update", ["idToken": .string(idToken), "deleteProvider": ["oidc.corp"]])
        #expect(unlinked.status == 200)
        #expect(unlinked.body["providerUserInfo"] == .array([]))
        let revoked = try await call(
            "revokeToken", ["idToken": .string(idToken), "providerId": "apple.com", "tokenType": "REFRESH_TOKEN", "token": "rt-x"],
            version: "v2")
        #expect(revoked.status == 200)
        #expect(firebase.revokedTokens.map(\.token) == ["rt-x"])
        firebase.ageSignIns(by: 301)
        #expect(errorMessage(try await call("delete", ["idToken": .string(idToken)]).body) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        firebase.ageSignIns(by: -301)
        #expect(try await call("delete", ["idToken": .string(idToken)]).status == 200)
        #expect(firebase.users.isEmpty)
    }

    static func claims(_ token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(parts[1]) else { return nil }
        return JSONValue.object(from: data)
    }
}

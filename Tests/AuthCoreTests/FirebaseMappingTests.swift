import AuthCore
import Foundation
import Testing

/// docs/firebase.md: each Firebase error as its docs/exit-codes.md code, and each request as the REST reference
/// spells it.
@Suite("Firebase errors and requests")
struct FirebaseMappingTests {
    static let key = "AIzaSyTest-\(UUID().uuidString.prefix(8))"
    let endpoints = try! FirebaseEndpoints(config: FirebaseConfig(projectId: "my-app", apiKey: key), emulator: nil)

    @Test(
        "every error of docs/firebase.md maps to its code",
        arguments: [
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", AuthError.Code.requiresRecentLogin),
            ("INVALID_IDP_RESPONSE", .invalidCredential), ("INVALID_PENDING_TOKEN", .invalidCredential),
            ("MISSING_OR_INVALID_NONCE", .invalidCredential), ("OPERATION_NOT_ALLOWED", .providerNotConfigured),
            ("INVALID_API_KEY", .providerNotConfigured), ("API_KEY_INVALID", .providerNotConfigured),
            ("CONFIGURATION_NOT_FOUND", .providerNotConfigured), ("PROJECT_NOT_FOUND", .providerNotConfigured),
            ("USER_DISABLED", .userDisabled), ("TOKEN_EXPIRED", .userTokenExpired), ("INVALID_ID_TOKEN", .userTokenExpired),
            ("USER_NOT_FOUND", .userTokenExpired), ("INVALID_REFRESH_TOKEN", .userTokenExpired),
            ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse), ("EMAIL_EXISTS", .accountExistsWithDifferentCredential),
        ])
    func mapped(code: String, expected: AuthError.Code) {
        let error = FirebaseErrorMapping.error(
            FirebaseServiceError(code: code), operation: .signIn(providerID: "oidc.corp"), project: "my-app")
        #expect(error.code == expected, "\(code)")
        #expect(error.details["firebaseError"] == .string(code))
    }

    @Test("USER_NOT_FOUND in reauth is user-mismatch; the console advice is named")
    func reauthAndAdvice() {
        let reauth = FirebaseErrorMapping.error(
            FirebaseServiceError(code: "USER_NOT_FOUND"), operation: .reauthenticate(providerID: "oidc.corp"), project: "my-app")
        #expect(reauth.code == .userMismatch)
        let disabled = FirebaseErrorMapping.error(FirebaseServiceError(code: "USER_DISABLED"), operation: .refresh, project: "my-app")
        #expect(disabled.message.description.contains("Firebase console"))
        let notEnabled = FirebaseErrorMapping.error(
            FirebaseServiceError(code: "OPERATION_NOT_ALLOWED"), operation: .signIn(providerID: "microsoft.com"), project: "my-app")
        #expect(notEnabled.message.description.contains("Sign-in method"))
    }

    @Test("the error of an answer: CODE : detail, a Google API error's reason, HTTP 200's errorMessage; never the key")
    func parsed() {
        func response(_ status: Int, _ json: String) -> HTTPResponse { HTTPResponse(status: status, body: Data(json.utf8)) }
        #expect(
            FirebaseServiceError.parse(
                response(400, #"{"error":{"code":400,"message":"USER_DISABLED : The user account has been disabled."}}"#))
                == FirebaseServiceError(code: "USER_DISABLED", detail: "The user account has been disabled."))
        #expect(
            FirebaseServiceError.parse(
                response(
                    400,
                    #"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#
                ))?.code == "API_KEY_INVALID")
        #expect(
            FirebaseServiceError.parse(response(200, #"{"errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED"}"#))?.code
                == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(FirebaseServiceError.parse(response(200, #"{"idToken":"x"}"#)) == nil)
        #expect(FirebaseServiceError.parse(response(502, "<html>bad gateway</html>")) == nil)
        let error = FirebaseErrorMapping.error(FirebaseServiceError(code: "API_KEY_INVALID"), operation: .lookup, project: "my-app")
        #expect(!error.description.contains(Self.key))
    }

    @Test("createAuthUri: providerId, continueUri, oauthScope, customParameter, tenantId; reserved parameters refused")
    func createAuthURI() throws {
        let request = try FirebaseRequests.CreateAuthURI(
            providerID: "microsoft.com", continueURI: "http://localhost:53682/", scopes: ["openid", "User.Read"],
            parameters: [("tenant", "contoso.onmicrosoft.com"), ("prompt", "select_account")], tenantID: "t-1"
        ).httpRequest(endpoints)
        #expect(request.url.absoluteString == "https://identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=\(Self.key)")
        #expect(request.place == "identitytoolkit.googleapis.com/v1/accounts:createAuthUri")
        let body = try #require(JSONValue.object(from: request.body ?? Data()))
        #expect(body["providerId"] == "microsoft.com")
        #expect(body["continueUri"] == "http://localhost:53682/")
        #expect(body["oauthScope"] == "openid User.Read")
        #expect(body["customParameter"] == .object(["tenant": "contoso.onmicrosoft.com", "prompt": "select_account"]))
        #expect(body["tenantId"] == "t-1")
        #expect(throws: AuthError.self) {
            try FirebaseRequests.CreateAuthURI(
                providerID: "oidc.x", continueURI: "http://localhost:1/", scopes: [], parameters: [("redirect_uri", "x")], tenantID: nil)
        }
    }

    @Test("signInWithIdp: requestUri, sessionId, postBody, pendingToken, idToken, autoCreate, returnSecureToken, returnIdpCredential")
    func signInWithIdP() throws {
        let request = FirebaseRequests.SignInWithIdP(
            requestURI: "http://localhost:1/?code=c&state=s", postBody: "id_token=t&providerId=oidc.x", sessionID: "sid",
            pendingToken: "pt", idToken: "fid", autoCreate: false
        ).httpRequest(endpoints)
        let body = try #require(JSONValue.object(from: request.body ?? Data()))
        #expect(body["requestUri"] == "http://localhost:1/?code=c&state=s")
        #expect(body["sessionId"] == "sid" && body["postBody"] == "id_token=t&providerId=oidc.x")
        #expect(body["pendingToken"] == "pt" && body["idToken"] == "fid" && body["autoCreate"] == false)
        #expect(body["returnSecureToken"] == true && body["returnIdpCredential"] == true)
        let plain = try #require(
            JSONValue.object(from: FirebaseRequests.SignInWithIdP(requestURI: "http://localhost").httpRequest(endpoints).body ?? Data()))
        #expect(plain["autoCreate"] == nil && plain["idToken"] == nil && plain["tenantId"] == nil)
    }

    @Test("the emulator's URL layout, FIREBASE_AUTH_EMULATOR_HOST first; securetoken's form; unlink, delete, revokeToken")
    func others() throws {
        let emulated = try FirebaseEndpoints(
            config: FirebaseConfig(projectId: "my-app", apiKey: "k", emulator: "127.0.0.1:9099"),
            emulator: FirebaseEmulatorHost(parsing: "localhost:9199", from: .environment))
        #expect(
            FirebaseRequests.lookup(emulated, idToken: "t").url.absoluteString
                == "http://localhost:9199/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k")
        #expect(
            FirebaseRequests.refresh(emulated, refreshToken: "r").url.absoluteString
                == "http://localhost:9199/securetoken.googleapis.com/v1/token?key=k")
        #expect(
            String(decoding: FirebaseRequests.refresh(endpoints, refreshToken: "r").body ?? Data(), as: UTF8.self)
                == "grant_type=refresh_token&refresh_token=r")
        #expect(throws: AuthError.self) { try FirebaseEmulatorHost(parsing: "firebase.example:9099", from: .environment) }
        let unlink = try #require(
            JSONValue.object(from: FirebaseRequests.unlink(endpoints, providerIDs: ["apple.com"], idToken: "t").body ?? Data()))
        #expect(unlink["deleteProvider"] == ["apple.com"])
        #expect(FirebaseRequests.delete(endpoints, idToken: "t").url.path == "/v1/accounts:delete")
        let revoke = FirebaseRequests.revokeToken(
            endpoints, providerID: "apple.com", token: "rt", tokenType: "REFRESH_TOKEN", idToken: "t", tenantID: nil)
        #expect(revoke.url.path == "/v2/accounts:revokeToken")
        #expect(JSONValue.object(from: revoke.body ?? Data())?["tokenType"] == "REFRESH_TOKEN")
    }
}

/// One value per Identity Toolkit and securetoken request of docs/firebase.md, each made into its
/// `HTTPRequest` (JSON bodies; securetoken's form). Pure: no I/O; the unit tests hold each to
/// the REST reference's field names.
public enum FirebaseRequests {
    /// `accounts:createAuthUri`: where the browser goes for `providerID`, with the loopback
    /// redirect as `continueUri` (docs/firebase.md).
    public struct CreateAuthURI: Sendable, Equatable {
        public var providerID: String
        public var continueURI: String
        /// Space-joined into `oauthScope`.
        public var scopes: [String]
        /// `customParameter` (Microsoft's `tenant` among them); the reserved names of docs/sign-in.md refused.
        public var parameters: [(String, String)]
        public var tenantID: String?

        public init(providerID: String, continueURI: String, scopes: [String], parameters: [(String, String)], tenantID: String?) throws {
            try AuthorizationRequest.checkCustomParameters(parameters)
            self.providerID = providerID
            self.continueURI = continueURI
            self.scopes = scopes
            self.parameters = parameters
            self.tenantID = tenantID
        }

        public static func == (a: Self, b: Self) -> Bool {
            a.providerID == b.providerID && a.continueURI == b.continueURI && a.scopes == b.scopes && a.tenantID == b.tenantID
                && a.parameters.map { [$0.0, $0.1] } == b.parameters.map { [$0.0, $0.1] }
        }

        public func httpRequest(_ endpoints: FirebaseEndpoints) -> HTTPRequest {
            var body: [String: JSONValue] = ["providerId": .string(providerID), "continueUri": .string(continueURI)]
            if !scopes.isEmpty { body["oauthScope"] = .string(scopes.joined(separator: " ")) }
            if !parameters.isEmpty {
                var custom: [String: JSONValue] = [:]
                for (name, value) in parameters { custom[name] = .string(value) }
                body["customParameter"] = .object(custom)
            }
            if let tenantID { body["tenantId"] = .string(tenantID) }
            return FirebaseRequests.json(endpoints.accounts("createAuthUri"), body)
        }
    }

    /// `accounts:signInWithIdp`: the provider's answer for Firebase to check and apply
    /// (sign in, link with `idToken`, reauthenticate with `autoCreate: false`).
    public struct SignInWithIdP: Sendable, Equatable {
        /// The full callback URL, or `http://localhost` with `postBody`/`pendingToken`.
        public var requestURI: String
        /// The form body of a form_post redirect, or `id_token=…&providerId=…[&nonce=RAW]`.
        public var postBody: String?
        /// `createAuthUri`'s session: the state and nonce Firebase put in the authorization URL.
        public var sessionID: String?
        /// A pending credential's token (`needConfirmation`, `EMAIL_EXISTS`, …).
        public var pendingToken: String?
        /// Link: the current user's Firebase ID token.
        public var idToken: String?
        /// Reauth: false, so that an unknown identity is `USER_NOT_FOUND`, never a new user.
        public var autoCreate: Bool?
        public var tenantID: String?

        public init(
            requestURI: String, postBody: String? = nil, sessionID: String? = nil, pendingToken: String? = nil, idToken: String? = nil,
            autoCreate: Bool? = nil, tenantID: String? = nil
        ) {
            self.requestURI = requestURI
            self.postBody = postBody
            self.sessionID = sessionID
            self.pendingToken = pendingToken
            self.idToken = idToken
            self.autoCreate = autoCreate
            self.tenantID = tenantID
        }

        public func httpRequest(_ endpoints: FirebaseEndpoints) -> HTTPRequest {
            var body: [String: JSONValue] = [
                "requestUri": .string(requestURI), "returnSecureToken": .bool(true), "returnIdpCredential": .bool(true),
            ]
            if let postBody { body["postBody"] = .string(postBody) }
            if let sessionID { body["sessionId"] = .string(sessionID) }
            if let pendingToken { body["pendingToken"] = .string(pendingToken) }
            if let idToken { body["idToken"] = .string(idToken) }
            if let autoCreate { body["autoCreate"] = .bool(autoCreate) }
            if let tenantID { body["tenantId"] = .string(tenantID) }
            return FirebaseRequests.json(endpoints.accounts("signInWithIdp"), body)
        }
    }

    /// `accounts:lookup` of the user the ID token names.
    public static func lookup(_ endpoints: FirebaseEndpoints, idToken: String) -> HTTPRequest {
        json(endpoints.accounts("lookup"), ["idToken": .string(idToken)])
    }

    /// `accounts:update` with `deleteProvider`: unlink.
    public static func unlink(_ endpoints: FirebaseEndpoints, providerIDs: [String], idToken: String) -> HTTPRequest {
        json(endpoints.accounts("update"), ["idToken": .string(idToken), "deleteProvider": .array(providerIDs.map(JSONValue.string))])
    }

    /// `accounts:delete` of the user the ID token names.
    public static func delete(_ endpoints: FirebaseEndpoints, idToken: String) -> HTTPRequest {
        json(endpoints.accounts("delete"), ["idToken": .string(idToken)])
    }

    /// `v2/accounts:revokeToken`: a provider's token revoked through Firebase (Apple, before delete).
    public static func revokeToken(
        _ endpoints: FirebaseEndpoints, providerID: String, token: String, tokenType: String, idToken: String, tenantID: String?
    ) -> HTTPRequest {
        var body: [String: JSONValue] = [
            "providerId": .string(providerID), "token": .string(token), "tokenType": .string(tokenType), "idToken": .string(idToken),
        ]
        if let tenantID { body["tenantId"] = .string(tenantID) }
        return json(endpoints.accounts("revokeToken", version: "v2"), body)
    }

    /// securetoken's refresh-token grant (a form, as the SDKs send it).
    public static func refresh(_ endpoints: FirebaseEndpoints, refreshToken: String) -> HTTPRequest {
        .form(endpoints.token, [("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    static func json(_ url: URL, _ body: [String: JSONValue]) -> HTTPRequest {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a tree of strings, booleans and objects cannot fail.
        let data = (try? encoder.encode(JSONValue.object(body))) ?? Data("{}".utf8)
        return HTTPRequest(
            method: "POST", url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"], body: data)
    }
}

/// The authorization URL of a brokered sign-in (docs/firebase.md: Firebase's `createAuthUri`): the
/// broker made it with its own client id, `state` and `nonce`, and exchanges the code
/// itself. authctl only sends the browser there and receives the redirect, whose `state`
/// must be the one in this URL.
public struct BrokeredAuthorization: Sendable, Equatable {
    public var authorizationURL: URL
    /// The broker's handle of the attempt (Firebase's `sessionId`), sent back with the redirect.
    public var sessionID: String
    /// The `state` the broker put in the URL.
    public var state: String
    /// True when the provider answers by `response_mode=form_post` (the redirect's body is
    /// then what the broker reads, as `postBody`).
    public var formPost: Bool

    public init(authorizationURL: URL, sessionID: String) throws {
        let items = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let state = items.first(where: { $0.name == "state" })?.value, !state.isEmpty else {
            throw AuthError.network(
                "the authorization URL the broker gave carries no state, so its redirect could not be recognised. Try again")
        }
        self.authorizationURL = authorizationURL
        self.sessionID = sessionID
        self.state = state
        formPost = items.contains { $0.name == "response_mode" && $0.value == "form_post" }
    }

    /// An authorization whose `state` is known apart from its URL (a pushed request's URL
    /// names only its `request_uri`: docs/remote.md).
    public init(authorizationURL: URL, sessionID: String, state: String, formPost: Bool) {
        self.authorizationURL = authorizationURL
        self.sessionID = sessionID
        self.state = state
        self.formPost = formPost
    }
}

/// What a brokered sign-in's redirect gave, for the broker to check and exchange (Firebase's
/// `signInWithIdp`): the full callback URL, or the posted form.
public struct BrokeredRedirect: Sendable, Equatable {
    /// The callback URL as the browser requested it (`requestUri`).
    public var requestURI: String
    /// The form body of a form_post redirect (`postBody`), nil for a query redirect.
    public var postBody: String?
    public var sessionID: String
}

/// The part of Microsoft Graph authctl uses: `/v1.0/me` (display name and mail) after a
/// sign-in that granted `User.Read`, and `/v1.0/me/photo/$value` on demand.
struct MicrosoftGraph: Sendable {
    /// `https://graph.microsoft.com`, without a trailing slash.
    let host: String

    /// Completes a profile with Graph's `displayName` and `mail`. On any problem the profile
    /// stays as the ID token stated it, with a warning saying why: Graph never fails a sign-in.
    /// `binding`: where the access token may go (the sign-in's, which names Graph's origin).
    func profile(completing profile: Profile, accessToken: String, binding: SecretBinding, transport: any HTTPTransport) async -> (
        Profile, [ProfileWarning]
    ) {
        guard let url = URL(string: host + "/v1.0/me") else { return (profile, []) }
        let endpoint = "\(url.host ?? "?")\(url.path)"
        do {
            try EndpointPolicy.check(url, what: "\(input: .graphHost)")
            var request = HTTPRequest(url: url, headers: ["Authorization": "Bearer \(accessToken)", "Accept": "application/json"])
            request.egress = .bound(binding, provider: "microsoft.com")
            let response = try await transport.send(request)
            guard response.status == 200, let me = JSONValue.object(from: response.body) else {
                return (profile, [.graphRefused(endpoint: endpoint, status: response.status, errorCode: response.apiErrorCode)])
            }
            var completed = profile
            if let name = me["displayName"]?.stringValue, !name.isEmpty { completed.displayName = name }
            if let mail = me["mail"]?.stringValue, !mail.isEmpty {
                completed.email = mail
                completed.emailVerified = false
            }
            return (completed, [])
        } catch {
            return (profile, [.graphUnreachable(endpoint: endpoint)])
        }
    }
}

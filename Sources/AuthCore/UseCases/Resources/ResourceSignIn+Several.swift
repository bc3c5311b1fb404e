extension ResourceSignIn {
    /// `login URL URL2 …` (docs/resources.md, "Several resources, one sign-in"): the other
    /// resources discovered as the first was (`--issuer` holds for each), each at the very
    /// server the first signs in at, each once; else `invalid-argument` naming the command
    /// that signs in to it on its own. Nothing is registered or opened before this.
    func moreResources(_ input: Input, sameServerAs first: ResourceDiscovery.Found) async throws -> [ResourceDiscovery.Found] {
        var seen = [first.metadata.resource.description]
        var found: [ResourceDiscovery.Found] = []
        for url in input.moreResources {
            let asked = try ResourceIdentifier(parsing: url)
            let other = try await discovery.discover(asked, issuer: input.issuer)
            let server = other.server.document.issuer
            guard server == first.server.document.issuer else {
                throw AuthError.invalidArgument(
                    "the resource \(other.metadata.resource.description) signs in at \(Sanitize.text(server, limit: 100)), not at \(Sanitize.text(first.server.document.issuer, limit: 100)) as \(first.metadata.resource.description) does: one sign-in serves only resources of one authorization server. Nothing was signed in. Sign in to it on its own: \(command: .login, "\(other.metadata.resource.description)")"
                )
            }
            let resource = other.metadata.resource.description
            guard !seen.contains(resource) else {
                throw AuthError.invalidArgument(
                    "the resource \(resource) is named twice (\(Sanitize.text(url, limit: 200)) is part of it). Name each resource once")
            }
            seen.append(resource)
            found.append(other)
        }
        return found
    }
}

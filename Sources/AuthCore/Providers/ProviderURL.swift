/// Builds a provider's fixed endpoints from configuration text (an issuer, a host).
enum ProviderURL {
    /// `base` (trailing `/` dropped) + `path`, or `provider-not-configured`: never a trap,
    /// whatever the configuration holds.
    static func make(_ base: String, _ path: String, provider: ProviderID, option: Message.Input) throws -> URL {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard let url = URLComponents(string: trimmed + path)?.url, url.host?.isEmpty == false else {
            throw AuthError.notConfigured(
                "the \(input: option) of \(provider), '\(Sanitize.text(base))', is not a URL. Set it again with: \(command: .providersAdd, "\(provider)", .input(option, "URL"))"
            )
        }
        return url
    }
}

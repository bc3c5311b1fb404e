/// A profile as a provider states it (claims of the ID token, or a user hint).
public struct Profile: Sendable, Equatable {
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    /// True when the email is a relay address that hides the real one (Apple's private
    /// relay). Linking such an identity with another needs the user's consent (docs/apple.md).
    /// Absent (nil) means false.
    public var isPrivateEmail: Bool?

    public init(
        email: String? = nil, emailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil,
        isPrivateEmail: Bool? = nil
    ) {
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.isPrivateEmail = isPrivateEmail
    }
}

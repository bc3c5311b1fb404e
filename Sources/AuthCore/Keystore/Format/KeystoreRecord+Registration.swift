extension KeystoreRecord {
    /// `registrations[]`: the registration access token (RFC 7592) of a client `login URL`
    /// registered (docs/resources.md), in plaintext in a plaintext keystore, else under
    /// `sealed` (AES-256-GCM under the data key, bound to the provider id).
    struct Registration: Codable, Equatable {
        var providerId: String
        var registrationAccessToken: String?
        var sealed: String?
        /// Where the token may be sent (RFC 7592 §2), as checked at registration: readable,
        /// and in a sealed keystore part of the sealed token's place. Absent in files of earlier builds.
        var registrationClientUri: String? = nil

        init(providerId: String, registrationAccessToken: String?, sealed: String? = nil, registrationClientUri: String? = nil) {
            self.providerId = providerId
            self.registrationAccessToken = registrationAccessToken
            self.sealed = sealed
            self.registrationClientUri = registrationClientUri
        }

        /// The sealed token's place: the provider id, and the client URI when one is recorded.
        var place: SealedPlace { .registration(providerID: providerId, clientURI: registrationClientUri) }

        /// Whether the token is where a file of this kind keeps it (exactly one of the two).
        func isShaped(sealed isSealed: Bool) -> Bool {
            isSealed ? registrationAccessToken == nil && sealed != nil : registrationAccessToken != nil && sealed == nil
        }

        func sealing(with key: DataKey) throws -> Registration {
            guard let token = registrationAccessToken else { return self }
            return Registration(
                providerId: providerId, registrationAccessToken: nil, sealed: try key.seal(Data(token.utf8), place: place),
                registrationClientUri: registrationClientUri)
        }

        func opening(with key: DataKey) throws -> Registration {
            guard let sealed else { return self }
            guard let plaintext = key.open(sealed, place: place), let token = String(validating: plaintext, as: UTF8.self)
            else { throw SealedValueRefused() }
            return Registration(
                providerId: providerId, registrationAccessToken: token, sealed: nil, registrationClientUri: registrationClientUri)
        }
    }
}

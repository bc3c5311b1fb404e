extension KeystoreRecord {
    /// `registrations[]`: what is kept of a client `login URL` registered (docs/resources.md):
    /// its registration access token (RFC 7592) and the client secret the server issued
    /// (RFC 7591 §3.2.1), each in plaintext in a plaintext keystore, else under `sealed` /
    /// `sealedClientSecret` (AES-256-GCM under the data key, bound to the provider id).
    struct Registration: Codable, Equatable {
        var providerId: String
        var registrationAccessToken: String?
        var sealed: String?
        /// Where the token may be sent (RFC 7592 §2), as checked at registration: readable,
        /// and in a sealed keystore part of the sealed token's place. Absent in files of earlier builds.
        var registrationClientUri: String? = nil
        var clientSecret: String? = nil
        var sealedClientSecret: String? = nil
        /// The issuer and client id the secret was issued for: readable, and in a sealed
        /// keystore part of the sealed secret's place.
        var clientSecretIssuer: String? = nil
        var clientSecretClientId: String? = nil

        init(
            providerId: String, registrationAccessToken: String?, sealed: String? = nil, registrationClientUri: String? = nil,
            clientSecret: String? = nil, sealedClientSecret: String? = nil, clientSecretIssuer: String? = nil,
            clientSecretClientId: String? = nil
        ) {
            self.clientSecretIssuer = clientSecretIssuer
            self.clientSecretClientId = clientSecretClientId
            self.providerId = providerId
            self.registrationAccessToken = registrationAccessToken
            self.sealed = sealed
            self.registrationClientUri = registrationClientUri
            self.clientSecret = clientSecret
            self.sealedClientSecret = sealedClientSecret
        }

        /// The sealed token's place: the provider id, and the client URI when one is recorded.
        var place: SealedPlace { .registration(providerID: providerId, clientURI: registrationClientUri) }
        var clientSecretPlace: SealedPlace {
            .registeredClientSecret(providerID: providerId, issuer: clientSecretIssuer ?? "", clientID: clientSecretClientId ?? "")
        }

        /// The secret with what it was issued for; nil when there is none (or it is still sealed).
        var registeredClientSecret: RegisteredClientSecret? {
            guard let clientSecret, let clientSecretIssuer, let clientSecretClientId else { return nil }
            return RegisteredClientSecret(secret: clientSecret, issuer: clientSecretIssuer, clientID: clientSecretClientId)
        }

        /// Whether each secret is where a file of this kind keeps it, and there is one at least.
        func isShaped(sealed isSealed: Bool) -> Bool {
            let token = isSealed ? registrationAccessToken == nil : sealed == nil
            let secret = isSealed ? clientSecret == nil : sealedClientSecret == nil
            let any = registrationAccessToken != nil || sealed != nil || clientSecret != nil || sealedClientSecret != nil
            // A secret names what it was issued for.
            let named = (clientSecret == nil && sealedClientSecret == nil) || (clientSecretIssuer != nil && clientSecretClientId != nil)
            return token && secret && any && named
        }

        func sealing(with key: DataKey) throws -> Registration {
            var record = self
            if let token = registrationAccessToken {
                record.registrationAccessToken = nil
                record.sealed = try key.seal(Data(token.utf8), place: place)
            }
            if let secret = clientSecret {
                record.clientSecret = nil
                record.sealedClientSecret = try key.seal(Data(secret.utf8), place: clientSecretPlace)
            }
            return record
        }

        func opening(with key: DataKey) throws -> Registration {
            func open(_ value: String, _ place: SealedPlace) throws -> String {
                guard let plaintext = key.open(value, place: place), let text = String(validating: plaintext, as: UTF8.self)
                else { throw SealedValueRefused() }
                return text
            }
            var record = self
            if let sealed {
                record.registrationAccessToken = try open(sealed, place)
                record.sealed = nil
            }
            if let sealedClientSecret {
                record.clientSecret = try open(sealedClientSecret, clientSecretPlace)
                record.sealedClientSecret = nil
            }
            return record
        }
    }
}

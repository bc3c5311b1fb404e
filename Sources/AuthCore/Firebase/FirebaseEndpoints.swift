/// Where each Firebase call goes (docs/firebase.md): `https://identitytoolkit.googleapis.com/v1/…` and
/// `https://securetoken.googleapis.com/v1/token`, or under `http://HOST:PORT/` of a loopback
/// emulator; every URL carries `?key=` (which `HTTPRequest.place`, what messages and `-v`
/// name, leaves out).
public struct FirebaseEndpoints: Sendable, Equatable {
    public let identityToolkit: String
    public let secureToken: String
    /// `HOST:PORT` of the emulator these endpoints reach; nil for the real service.
    public let emulator: String?
    let apiKey: String

    /// - Parameter emulator: `FIREBASE_AUTH_EMULATOR_HOST` when set (it overrides the configuration's).
    public init(config: FirebaseConfig, emulator: FirebaseEmulatorHost?) throws {
        let host = try emulator ?? config.emulator.map { try FirebaseEmulatorHost(parsing: $0, from: .emulator) }
        if let host {
            identityToolkit = "http://\(host.authority)/identitytoolkit.googleapis.com"
            secureToken = "http://\(host.authority)/securetoken.googleapis.com"
            self.emulator = host.authority
        } else {
            identityToolkit = "https://identitytoolkit.googleapis.com"
            secureToken = "https://securetoken.googleapis.com"
            self.emulator = nil
        }
        apiKey = config.apiKey
    }

    /// `v1/accounts:NAME` (`createAuthUri`, `signInWithIdp`, `lookup`, `update`, `delete`).
    public func accounts(_ method: String, version: String = "v1") -> URL {
        url("\(identityToolkit)/\(version)/accounts:\(method)")
    }

    /// `securetoken.googleapis.com/v1/token`.
    public var token: URL { url("\(secureToken)/v1/token") }

    private func url(_ base: String) -> URL {
        // The key is checked to be URL-safe (`FirebaseConfig.checkAPIKey`); the base is ours.
        URL(string: "\(base)?key=\(FormURLEncoding.escape(apiKey))") ?? URL(fileURLWithPath: "/")
    }
}

/// Where `login`, `link` and `reauth` run (docs/accounts.md, docs/firebase.md): the keystore, with the account rules
/// applied on this machine to a credential of authctl's own flows (`LocalAccountBackend`), or
/// a Firebase project, which brokers the sign-in and applies the rules itself
/// (`FirebaseAccountBackend`). The wiring chooses one per command from config.json; the use
/// cases and the commands never know which runs.
public protocol AccountBackend: Sendable {
    /// `login`: the identity's user signs in, or a new user is created.
    func signIn(_ input: SignIn.Input) async throws -> SignIn.Output
    /// `link`: the identity joins the current user (resolved when the command starts).
    func link(_ input: Link.Input) async throws -> Link.Output
    /// `reauth`: the current user proves again that it holds the identity; the user after.
    func reauthenticate(_ input: Reauthenticate.Input) async throws -> User
}

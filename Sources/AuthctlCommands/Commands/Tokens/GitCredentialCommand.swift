import ArgumentParser
import AuthCore

/// `authctl git-credential PROVIDER [--scope S]… get|store|erase`: git runs it as a credential
/// helper (`credential.<url>.helper`), with the operation last and the description on stdin.
/// stdout carries the protocol and nothing else; errors go to stderr, and a `get` that fails
/// prints nothing on stdout and exits non-zero, so git asks its next helper or the user.
struct GitCredentialCommand: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "A git credential helper: answers git with the current user's fresh access token.",
        discussion: """
            Set it for one remote host: git config --global credential.https://dev.azure.com.helper \
            "!authctl git-credential microsoft.com --scope 499b84ac-1321-427f-aa17-267ca6975798/.default". \
            get prints the token as the password (or, when git announces the authtype capability, as a Bearer \
            credential); erase (the server refused it) drops that cached token so the next get refreshes it; store \
            changes nothing. The user is the one config.json's rules choose for the remote (with \
            credential.useHttpPath, its path too), --user, or the current user (identities.md in the documentation).
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The provider whose token git gets.", completion: Completions.providerIDs) var provider: String
    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Give an access token for these scopes (repeatable; Azure DevOps: 499b84ac-1321-427f-aa17-267ca6975798/.default).",
            valueName: "scope"))
    var scopes: [String] = []
    @Argument(help: "What git asks: get, store or erase (other operations are ignored, as git asks of helpers).") var operation: String

    func validate() throws {
        guard scopes.allSatisfy(ScopeSyntax.isValid) else {
            throw ValidationError("--scope takes one scope each time (printable ASCII, no spaces); repeat it for several")
        }
    }

    func run(_ wiring: Wiring) async throws {
        let providerID = try ProviderID(parsing: provider)
        if operation == "capability" {
            // `git credential capability`'s format (git ≥ 2.46), with no input: the version, then
            // one line a capability.
            try Self.emit(to: wiring, "version 0\ncapability \(GitCredentialDescription.authTypeCapability)\n")
            return
        }
        let description = try Self.readDescription(wiring.io.stdin)
        guard operation == "get" || operation == "erase" else {
            // store, and any operation a later git adds: nothing to do (gitcredentials(7): a
            // helper ignores operations it does not know).
            return
        }
        // The identity the rules choose for the URL git asks about (docs/identities.md).
        let chosen = try wiring.chosenIdentity(askedRemote: Self.askedURL(description))
        var input = GitCredential.Input(providerID: providerID, scopes: scopes, description: description, uid: chosen.uid)
        input.chosenBy = chosen.chosenBy
        if operation == "erase" {
            try await wiring.useCases().gitCredential.erase(input)
            return
        }
        let answer = try await wiring.useCases().gitCredential.get(input)
        try Self.emit(to: wiring, answer.encoded())
    }

    /// The URL git asks a credential for: `protocol://host[/path]` (the path only with
    /// `credential.useHttpPath`); nil without a protocol and a host.
    static func askedURL(_ description: GitCredentialDescription) -> String? {
        guard let scheme = description["protocol"], let host = description["host"], !scheme.isEmpty, !host.isEmpty else { return nil }
        let path = description["path"].map { $0.hasPrefix("/") ? $0 : "/" + $0 } ?? ""
        return scheme + "://" + host + path
    }

    /// git's description from stdin, bounded, and cancellable (Ctrl-C).
    static func readDescription(_ stdin: any InputChannel) throws -> GitCredentialDescription {
        try GitCredentialDescription.read { limit in
            do {
                return try stdin.readLine(limit: limit)
            } catch is InputTooLarge {
                throw AuthError.invalidArgument(
                    "a line of git's credential description is longer than \(limit) bytes. Check what runs authctl git-credential")
            }
        }
    }

    /// Writes all of `text` to stdout; a failure (git went away) is an error.
    static func emit(to wiring: Wiring, _ text: String) throws {
        do {
            try wiring.io.stdout.write(Array(text.utf8))
        } catch let failure as FileDescriptorOutput.WriteFailed {
            throw AuthError.internalError("could not write the answer to git (errno \(failure.errno))")
        } catch {
            throw AuthError.internalError("could not write the answer to git")
        }
    }
}

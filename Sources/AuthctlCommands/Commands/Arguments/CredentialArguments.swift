import ArgumentParser
import AuthCore

/// The alternatives to the browser flow on `login`, `link` and `reauth` (docs/authctl.1).
struct CredentialArguments: ParsableArguments {
    @Option(
        name: .customLong("id-token"),
        help: ArgumentHelp("Sign in with an ID token obtained elsewhere, read from stdin: --id-token -", valueName: "-"))
    var idToken: String?

    @Option(
        name: .customLong("raw-nonce"),
        help: ArgumentHelp("The nonce the --id-token was requested with (it must match).", valueName: "nonce"))
    var rawNonce: String?

    func validate() throws {
        if let idToken, idToken != "-" {
            throw ValidationError(
                "--id-token takes '-' and reads the token from stdin (a token on the command line is visible to every user of this machine): --id-token - < token.jwt"
            )
        }
        if rawNonce != nil, idToken == nil { throw ValidationError("--raw-nonce goes with --id-token -") }
    }

    /// The source of the credential: the ID token from stdin (read when the sign-in gets to
    /// it), or the browser flow.
    func source(flow: FlowArguments, wiring: Wiring) throws -> CredentialSource {
        guard idToken != nil else { return .interactive(try flow.flowOptions(environment: wiring.environment)) }
        let io = wiring.io
        return .idToken(IDTokenInput { try Self.readStandardInput(io) }, rawNonce: rawNonce)
    }

    /// The most an ID token read from stdin may have: 1 MiB (a real one is a few KiB; the
    /// same bound as a provider's token response).
    static let idTokenLimit = 1 << 20

    /// Reads stdin to its end (at most `idTokenLimit`); Ctrl-C ends the wait (exit 5).
    static func readStandardInput(_ io: AuthctlIO) throws -> String {
        if io.stdin.isTerminal {
            Output(stdout: io.stdout, stderr: io.stderr).error("authctl: paste the ID token, then press Ctrl-D (Ctrl-C to cancel)\n")
        }
        let data: Data
        do {
            data = try io.stdin.readToEnd(limit: idTokenLimit)
        } catch is InputTooLarge {
            throw AuthError.invalidArgument(
                "stdin holds more than 1 MiB, which is no ID token. Pipe the token alone: --id-token - < token.jwt")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw AuthError.invalidArgument("stdin does not hold an ID token (not text). Pipe the token alone: --id-token - < token.jwt")
        }
        return text
    }
}

import ArgumentParser
import AuthCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The alternatives to the browser flow on `login`, `link` and `reauth` (SPEC §2).
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

    /// The source of the credential: the ID token from stdin, or the browser flow.
    func source(flow: FlowArguments) throws -> CredentialSource {
        guard idToken != nil else { return .interactive(try flow.flowOptions()) }
        return .idToken(try Self.readStandardInput(), rawNonce: rawNonce)
    }

    /// Reads stdin to its end (at most 64 KiB: an ID token is a few KiB).
    static func readStandardInput() throws -> String {
        if isatty(STDIN_FILENO) == 1 {
            FileHandle.standardError.write(Data("authctl: paste the ID token, then press Ctrl-D\n".utf8))
        }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard data.count <= 65_536, let text = String(data: data, encoding: .utf8) else {
            throw AuthError.invalidArgument(
                "stdin does not hold an ID token (more than 64 KiB, or not text). Pipe the token alone: --id-token - < token.jwt")
        }
        return text
    }
}

import ArgumentParser
import AuthCore

/// `authctl gcp-token`: the response of an executable-sourced ("pluggable") external account
/// credential (Google's auth libraries, gcloud; docs/cloud.md): version 1, `success`, the
/// subject token and its type and expiry — or `success: false` with a code and a message, and
/// a non-zero exit status.
///
/// Google's libraries run it with `GOOGLE_EXTERNAL_ACCOUNT_AUDIENCE`, `…_TOKEN_TYPE`,
/// `…_INTERACTIVE` and `…_OUTPUT_FILE` set, and read stdout with stderr merged into it: so
/// nothing is printed on stderr when it succeeds.
struct GCPTokenCommand: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "gcp-token",
        abstract: "Print the current identity's token as Google's executable-sourced credential response (workload identity federation).",
        discussion: """
            For an external account credential configuration whose credential_source.executable.command is \
            "authctl gcp-token" (and GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1). Gives the ID token, or with --audience \
            a token exchanged for that audience (RFC 8693, given as a JWT).
            """)

    @OptionGroup var subject: SubjectTokenArguments
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        let environment = wiring.environment
        if environment["GOOGLE_EXTERNAL_ACCOUNT_REVOKE"] == "1" {
            // gcloud's sign-out of an interactive credential: authctl's session is ended with
            // `authctl signout`, not by Google's tools; nothing to revoke here.
            wiring.output.write(Output.jsonDocument(.object(["version": .number(1), "success": .bool(true)])))
            return
        }
        do {
            wiring.output.write(try await response(wiring, asked: environment["GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE"]))
        } catch let error as AuthError {
            if !global.json {
                wiring.output.write(
                    Output.jsonDocument(
                        .object([
                            "version": .number(1), "success": .bool(false), "code": .string(error.code.rawValue),
                            "message": .string(MessageSpelling.words(error.message)),
                        ])))
            }
            throw error
        }
    }

    /// The success response, or the error of the token it could not give.
    func response(_ wiring: Wiring, asked: String?) async throws -> Data {
        // The identity `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current user.
        let chosen = try wiring.chosenIdentity()
        let output = try await wiring.useCases().gcpSubjectToken.run(
            .init(
                providerID: try chosen.providerID(subject.provider), exchange: subject.exchange, askedType: asked, uid: chosen.uid,
                chosenBy: chosen.chosenBy))
        var document: [String: JSONValue] = [
            "version": .number(1), "success": .bool(true), "token_type": .string(output.tokenType), "id_token": .string(output.token),
        ]
        if let expiresAt = output.expiresAt { document["expiration_time"] = .number(expiresAt.timeIntervalSince1970.rounded(.down)) }
        return Output.jsonDocument(.object(document))
    }
}

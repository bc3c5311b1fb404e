import ArgumentParser
import AuthCore

/// `authctl aws-credentials --role-arn ARN`: the AWS CLI's `credential_process` (docs/cloud.md).
/// stdout carries the credential document and nothing else; the secret key and session token
/// go nowhere else (no log line, no message, no file but the keystore).
struct AWSCredentialsCommand: AuthctlCommand {
    var takesUser: Bool { true }

    static let configuration = CommandConfiguration(
        commandName: "aws-credentials",
        abstract: "Print AWS credentials for a role, from STS AssumeRoleWithWebIdentity with the current identity (credential_process).",
        discussion: """
            Calls STS AssumeRoleWithWebIdentity with the current identity's ID token (or, with --audience, a token \
            exchanged for that audience, RFC 8693) and prints the AWS CLI's credential_process document: Version 1, \
            AccessKeyId, SecretAccessKey, SessionToken, Expiration. The credentials are kept in the keystore (sealed with \
            it) until five minutes before they expire.

            In ~/.aws/config:
              [profile dev]
              credential_process = authctl aws-credentials --role-arn arn:aws:iam::123456789012:role/dev
            """)

    @Option(name: .customLong("role-arn"), help: ArgumentHelp("The role to assume (arn:aws:iam::ACCOUNT:role/NAME).", valueName: "arn"))
    var roleARN: String
    @Option(
        name: .customLong("duration"), parsing: .unconditional,
        help: ArgumentHelp("How long the credentials last, from 900 to 43200 seconds (default: STS's, an hour).", valueName: "seconds"))
    var duration: Int?
    @Option(
        name: .customLong("session-name"),
        help: ArgumentHelp("The role session name CloudTrail shows (default authctl-UID).", valueName: "name"))
    var sessionName: String?
    @Option(
        name: .customLong("sts-endpoint"),
        help: ArgumentHelp(
            "The STS address (default https://sts.REGION.amazonaws.com/ with --region, else the global one).", valueName: "url"))
    var stsEndpoint: String?
    @Option(name: .customLong("region"), help: ArgumentHelp("Call the STS of this region (such as eu-west-1).", valueName: "region"))
    var region: String?
    @OptionGroup var subject: SubjectTokenArguments
    @Flag(name: .customLong("force-refresh"), help: "Assume the role again even when the cached credentials are still valid.")
    var forceRefresh = false
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let duration, !STSEndpoint.durationRange.contains(duration) {
            throw ValidationError("--duration \(duration) is out of range: give 900…43200 seconds")
        }
        guard stsEndpoint == nil || region == nil else {
            throw ValidationError("--sts-endpoint and --region exclude each other: the endpoint names its region")
        }
    }

    func run(_ wiring: Wiring) async throws {
        let endpoint = try stsEndpoint.map(STSEndpoint.parse) ?? STSEndpoint.url(region: region)
        // The identity `--user`, AUTHCTL_USER or a rule chose (docs/identities.md), else the current user.
        let chosen = try wiring.chosenIdentity()
        var input = AWSRoleCredentials.Input(
            providerID: try chosen.providerID(subject.provider), roleARN: roleARN, sessionName: sessionName, durationSeconds: duration,
            endpoint: endpoint, exchange: subject.exchange, forceRefresh: forceRefresh, uid: chosen.uid)
        input.chosenBy = chosen.chosenBy
        let output = try await wiring.useCases().awsRoleCredentials.run(input)
        wiring.output.write(Self.document(output.credentials))
    }

    /// The `credential_process` document (AWS CLI and SDKs: "Sourcing credentials with an
    /// external process"), its `Expiration` in ISO 8601 UTC.
    static func document(_ credentials: AWSTemporaryCredentials) -> Data {
        Output.jsonDocument(
            .object([
                "Version": .number(1),
                "AccessKeyId": .string(credentials.accessKeyID),
                "SecretAccessKey": .string(credentials.secretAccessKey),
                "SessionToken": .string(credentials.sessionToken),
                "Expiration": .string(Output.rfc3339(credentials.expiration)),
            ]))
    }
}

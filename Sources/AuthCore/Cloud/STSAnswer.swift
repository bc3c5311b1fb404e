/// STS's answer to `AssumeRoleWithWebIdentity`, read strictly for exactly what authctl
/// needs: `Credentials` (`AccessKeyId`, `SecretAccessKey`, `SessionToken`, `Expiration`) and
/// `AssumedRoleUser/Arn`; or the `ErrorResponse` (`Error/Code`, `Error/Message`) as a typed
/// `AuthError` with the next step (docs/cloud.md). No value of the answer ever reaches a
/// message but STS's error code and its sanitized message.
public enum STSAnswer {
    /// The credentials in a 200 answer, or the refusal STS made.
    public static func parse(_ response: HTTPResponse, place: String) throws -> AWSTemporaryCredentials {
        let root: BoundedXML.Element
        do {
            root = try BoundedXML.parse(response.body)
        } catch let refused as BoundedXML.Refused {
            throw AuthError.network(
                "the answer from STS at \(place) (HTTP \(response.status)) is not the XML of the STS API (\(refused.reason)). Check \(input: .stsEndpoint) and \(input: .awsRegion)"
            )
        }
        if response.status == 200, root.name == "AssumeRoleWithWebIdentityResponse" {
            return try credentials(root, place: place)
        }
        if let error = root.name == "ErrorResponse" ? root.only("Error") : (root.name == "Error" ? root : nil),
            let code = error.only("Code")?.text
        {
            throw refusal(code: code, message: error.only("Message")?.text, status: response.status, place: place)
        }
        throw AuthError.network(
            "STS at \(place) answered HTTP \(response.status) with a document that is neither credentials nor an STS error. Check \(input: .stsEndpoint)"
        )
    }

    static func credentials(_ root: BoundedXML.Element, place: String) throws -> AWSTemporaryCredentials {
        func missing(_ what: String) -> AuthError {
            AuthError.network("the answer from STS at \(place) has no single \(what). Check \(input: .stsEndpoint)")
        }
        guard let result = root.only("AssumeRoleWithWebIdentityResult") else { throw missing("AssumeRoleWithWebIdentityResult") }
        guard let credentials = result.only("Credentials") else { throw missing("Credentials") }
        guard let accessKeyID = credentials.only("AccessKeyId")?.text.trimming(.whitespacesAndNewlines),
            isKeyID(accessKeyID)
        else { throw missing("AccessKeyId of 16–128 letters and digits") }
        guard let secret = credentials.only("SecretAccessKey")?.text.trimming(.whitespacesAndNewlines), isSecret(secret, limit: 256)
        else { throw missing("SecretAccessKey") }
        guard let sessionToken = credentials.only("SessionToken")?.text.trimming(.whitespacesAndNewlines),
            isSecret(sessionToken, limit: 16384)
        else { throw missing("SessionToken") }
        guard let expirationText = credentials.only("Expiration")?.text.trimming(.whitespacesAndNewlines),
            let expiration = ISO8601Time.parse(expirationText)
        else { throw missing("Expiration (an ISO 8601 time in UTC)") }
        let arn = result.only("AssumedRoleUser")?.only("Arn")?.text.trimming(.whitespacesAndNewlines)
        return AWSTemporaryCredentials(
            accessKeyID: accessKeyID, secretAccessKey: secret, sessionToken: sessionToken, expiration: expiration,
            assumedRoleARN: arn.flatMap { $0.isEmpty || $0.count > 2048 ? nil : $0 })
    }

    /// An access key id: upper-case letters and digits (`ASIA…`), 16–128.
    static func isKeyID(_ text: String) -> Bool {
        (16...128).contains(text.count) && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A secret that goes into an AWS CLI JSON document and an HTTP header: visible ASCII, no space.
    static func isSecret(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= limit && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// STS's error as an `AuthError`: a refusal is `invalid-credential` (exit 4) with what to
    /// do; STS failing to reach the identity provider, or a 5xx, is `network-request-failed` (3).
    static func refusal(code rawCode: String, message: String?, status: Int, place: String) -> AuthError {
        let code = Sanitize.text(rawCode, limit: 64)
        let said = message.map { " (\(Sanitize.text($0, limit: 300)))" } ?? ""
        let details: [String: JSONValue] = ["stsError": .string(code), "status": .number(Double(status))]
        let refused: Message = "STS at \(place) refused AssumeRoleWithWebIdentity: \(code)\(said)"
        switch rawCode {
        case "InvalidIdentityToken":
            return AuthError.invalidCredential(
                "\(refused). The role's account does not accept this token: check that IAM has an OpenID Connect identity provider for the token's issuer whose audiences include the token's aud (the client id), or give a token made for AWS with \(input: .audience)",
                details: details)
        case "ExpiredTokenException":
            return AuthError.invalidCredential(
                "\(refused). The web identity token expired before STS checked it. Run the command again (authctl refreshes it first); if it repeats, check this machine's clock",
                details: details)
        case "IDPRejectedClaim":
            return AuthError.invalidCredential(
                "\(refused). A claim of the token (its audience or subject) is not one the role allows. Check the role's trust policy conditions, or the token's audience (\(input: .audience))",
                details: details)
        case "AccessDenied", "AccessDeniedException":
            return AuthError.invalidCredential(
                "\(refused). The role's trust policy does not let this identity assume it: allow sts:AssumeRoleWithWebIdentity for the federated principal of the token's issuer, with conditions that match the token's aud and sub",
                details: details)
        case "RegionDisabledException":
            return AuthError.invalidCredential(
                "\(refused). STS is not activated in that region for the account. Use another \(input: .awsRegion), or activate it in IAM",
                details: details)
        case "IDPCommunicationError":
            return AuthError.network(
                "\(refused). STS could not reach the identity provider to check the token's signature. Try again later")
        default:
            if status >= 500 {
                return AuthError.network("\(refused). STS is unavailable; try again later")
            }
            return AuthError.invalidCredential(
                "\(refused). Check \(input: .roleARN), \(input: .duration) (at most the role's maximum session duration) and \(input: .sessionName)",
                details: details)
        }
    }
}

/// ISO 8601 times as AWS writes them: `2026-11-25T21:04:05Z`, with optional fractional
/// seconds (`.000Z`) and `Z` or `+00:00`; nothing else.
enum ISO8601Time {
    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 20, scalars.count <= 35 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[from..<(from + count)] {
                guard ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int(scalar.value - 48)
            }
            return value
        }
        guard let year = number(0, 4), scalars[4] == "-", let month = number(5, 2), scalars[7] == "-", let day = number(8, 2),
            scalars[10] == "T", let hour = number(11, 2), scalars[13] == ":", let minute = number(14, 2), scalars[16] == ":",
            let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
            year >= 1970
        else { return nil }
        var index = 19
        if index < scalars.count, scalars[index] == "." {
            index += 1
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start else { return nil }
        }
        let zone = String(String.UnicodeScalarView(scalars[index...]))
        guard zone == "Z" || zone == "+00:00" else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + hour * 3600 + minute * 60 + second))
    }
}

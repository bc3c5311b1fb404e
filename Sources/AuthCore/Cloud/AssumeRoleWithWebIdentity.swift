/// AWS STS `AssumeRoleWithWebIdentity` (API version 2011-06-15): a web identity token — an
/// OpenID Connect ID token, or a JWT from a token exchange — for a role's temporary
/// credentials. The request is not signed (the token is the credential): a form POST of the
/// query API's parameters; the answer is XML (`STSAnswer` reads it).
public struct AssumeRoleWithWebIdentityRequest: Sendable, Equatable {
    public var endpoint: URL
    /// `RoleArn`.
    public var roleARN: String
    /// `RoleSessionName`: 2–64 of `[A-Za-z0-9_+=,.@-]`.
    public var roleSessionName: String
    /// `WebIdentityToken`: a secret; in the body only, never in the URL.
    public var webIdentityToken: String
    /// `DurationSeconds`, 900…43200 (the role's maximum session duration bounds it); nil: STS's default (an hour).
    public var durationSeconds: Int?

    public init(endpoint: URL, roleARN: String, roleSessionName: String, webIdentityToken: String, durationSeconds: Int?) {
        self.endpoint = endpoint
        self.roleARN = roleARN
        self.roleSessionName = roleSessionName
        self.webIdentityToken = webIdentityToken
        self.durationSeconds = durationSeconds
    }

    /// STS's answer is a few KB; 64 KiB is plenty and bounds what the XML reader sees.
    public static let responseLimit = 64 << 10

    public var httpRequest: HTTPRequest {
        var parameters = [
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
            ("RoleSessionName", roleSessionName), ("WebIdentityToken", webIdentityToken),
        ]
        if let durationSeconds { parameters.append(("DurationSeconds", String(durationSeconds))) }
        var request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8", "Accept": "text/xml"],
            body: Data(FormURLEncoding.encode(parameters).utf8), responseLimit: Self.responseLimit)
        // The ID token is what `aws-credentials` exists to give STS (an AWS host, `STSEndpoint`).
        request.egress = .handedOver(recipient: "AWS STS")
        return request
    }
}

/// Where STS is reached and what a request to it may hold (docs/cloud.md).
public enum STSEndpoint {
    /// `https://sts.amazonaws.com/` (the global endpoint), or a region's own
    /// (`https://sts.eu-west-1.amazonaws.com/`; China's regions under `amazonaws.com.cn`).
    public static func url(region: String?) throws -> URL {
        var host = "sts.amazonaws.com"
        if let region {
            guard isRegion(region) else {
                throw AuthError.invalidArgument(
                    "'\(Sanitize.text(region, limit: 40))' is not an AWS region name (such as eu-west-1). Check \(input: .awsRegion)")
            }
            host = "sts.\(region).\(region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com")"
        }
        guard let url = URL(string: "https://\(host)/") else {
            throw AuthError.invalidArgument("'\(region ?? "")' gives no STS address. Check \(input: .awsRegion)")
        }
        return url
    }

    /// A region name: lower-case letters, digits and dashes, 1–32 of them, a letter first.
    static func isRegion(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.count <= 32 else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A given `--sts-endpoint`: `https://`, or `http://` on a loopback address only; no
    /// user name or password, query or fragment.
    public static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host?.isEmpty == false, url.user == nil,
            url.password == nil, url.query == nil, url.fragment == nil
        else {
            throw AuthError.invalidArgument(
                "\(input: .stsEndpoint) takes an address such as https://sts.eu-west-1.amazonaws.com/ (no query, no user name)")
        }
        guard scheme == "https" || (scheme == "http" && EndpointPolicy.isLoopback(host: url.host)) else {
            throw AuthError.invalidArgument(
                "\(input: .stsEndpoint) must be https:// (plain http only on a loopback address such as 127.0.0.1): the web identity token and the credentials would cross the network in clear"
            )
        }
        return url
    }

    /// `RoleSessionName`'s syntax: 2–64 of `[A-Za-z0-9_+=,.@-]`.
    public static func isSessionName(_ text: String) -> Bool {
        (2...64).contains(text.unicodeScalars.count)
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_+=,.@-".unicodeScalars.contains($0)
            }
    }

    /// A role ARN as STS takes it: `arn:PARTITION:iam::ACCOUNT:role/NAME`, at most 2048 visible ASCII characters.
    public static func isRoleARN(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard text.count >= 20, text.count <= 2048, parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[2] == "iam",
            parts[3].isEmpty, parts[4].count == 12, parts[4].allSatisfy(\.isASCIIDigit), parts[5].hasPrefix("role/"),
            parts[5].count > 5
        else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// `DurationSeconds`' range.
    public static let durationRange = 900...43_200
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

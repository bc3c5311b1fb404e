import AuthCore

/// How a user's resource grants (docs/resources.md) are shown: `status`, `users show`, `--json`.
extension Output {
    static func resourceGrants(_ user: User) -> JSONValue {
        .array(
            user.resourceGrants.map { grant in
                var fields: [String: JSONValue] = [
                    "resource": .string(grant.resource),
                    "issuer": .string(grant.issuer),
                    "providerId": .string(grant.providerID),
                    "grantedAt": timestamp(grant.grantedAt),
                    "scopes": .array((grant.tokens?.scopes ?? []).map(JSONValue.string)),
                    "accessTokenExpiresAt": timestamp(grant.tokens?.expiresAt),
                    "refreshable": grant.tokens?.isSealed == true
                        ? .null : .bool(grant.tokens?.refreshToken != nil || (grant.tokens != nil && grant.refreshTokenOf != nil)),
                    "signedIn": .bool(grant.tokens != nil),
                ]
                // `login URL --via P`: the identity the grant is chained from, renewed through it.
                if let via = grant.viaProviderID { fields["viaProviderId"] = .string(via) }
                // One sign-in for several resources: the grant whose refresh token renews this one.
                if let holder = grant.refreshTokenOf { fields["refreshTokenOf"] = .string(holder) }
                return .object(fields)
            })
    }

    static func describeResourceGrants(_ user: User, now: Date) -> [String] {
        user.resourceGrants.map { grant in
            var state = "signed out"
            if let tokens = grant.tokens {
                state =
                    tokens.expiresAt.map { expiry in
                        let interval = expiry.timeIntervalSince(now)
                        let seconds = interval.isFinite ? Int(max(min(interval, 1e12), -1e12)) : 0  // a keystore date never traps
                        return seconds > 0 ? "access token valid for \(lifetime(seconds))" : "access token expired"
                    } ?? "access token (lifetime unknown)"
                if tokens.isSealed {
                    state += ", tokens sealed"
                } else {
                    state +=
                        tokens.refreshToken != nil
                        ? ", refreshable"
                        : grant.refreshTokenOf.map { ", refreshable (with the refresh token of \(cell($0)))" }
                            ?? grant.viaProviderID.map { ", renewed through \(cell($0)) (identity chaining)" } ?? ", not refreshable"
                }
                if !tokens.scopes.isEmpty { state += "; scopes: \(cell(tokens.scopes.joined(separator: " ")))" }
            }
            return "  resource \(cell(grant.resource)) (\(cell(grant.providerID))) — \(state)"
        }
    }
}

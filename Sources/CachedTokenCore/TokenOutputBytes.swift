/// The bytes `authctl token` prints (both programs: the full program through
/// CachedTokenCore+Foundation.swift in AuthCore), made without `JSONEncoder`, date formatting or generic
/// `Data` initialisers (each of which costs the hot path a search of the binary's protocol
/// conformances: bench/README.md, issue 24). Each gives exactly what `TokenInvocation.printed`
/// gave before — TokenOutputBytesTests compares them — or nil when the token or the date is
/// anything but the common case, and then the general code does it.
public enum TokenOutputBytes {
    /// `text` as UTF-8, copied from the string's own storage whole.
    public static func bytes(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { Array($0) }
    }

    /// A token of printable ASCII that JSON writes as it is: no quote, no backslash (and so
    /// nothing `JSONEncoder` escapes, nor `Sanitize.visibleJSON`).
    public static func isPlainJSON(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }

    /// `--format kubectl-exec`'s ExecCredential, as `Output.jsonDocument` writes it (sorted
    /// keys, two-space indentation, ` : `), for a plain token and a whole-second expiry of
    /// the years 1970–9999; nil otherwise.
    public static func kubectlExecCredential(token: String, expiresAtSeconds expiresAt: Double?) -> [UInt8]? {
        guard isPlainJSON(token) else { return nil }
        var text = "{\n  \"apiVersion\" : \"client.authentication.k8s.io/v1\",\n  \"kind\" : \"ExecCredential\",\n  \"status\" : {\n"
        if let expiresAt {
            guard let stamp = rfc3339(seconds: expiresAt) else { return nil }
            text += "    \"expirationTimestamp\" : \"" + stamp + "\",\n"
        }
        text += "    \"token\" : \"" + token + "\"\n  }\n}\n"
        return bytes(text)
    }

    /// `--format headers-json`: one line of a JSON object of the request's headers, the shape
    /// agents' header helpers read (`{"Authorization":"Bearer …"}`, and `"DPoP"` with a proof);
    /// nil when a value is not plain JSON (the full program escapes it).
    public static func headersJSON(authorization: String, dpop: String?) -> [UInt8]? {
        guard isPlainJSON(authorization), dpop.map(isPlainJSON) ?? true else { return nil }
        return bytes(
            "{\"Authorization\":\"" + authorization + "\"" + (dpop.map { ",\"DPoP\":\"" + $0 + "\"" } ?? "") + "}\n")
    }

    /// `Output.rfc3339` (`Date.ISO8601FormatStyle()`: `YYYY-MM-DDTHH:MM:SSZ`) for a
    /// whole second of the years 1970–9999; nil for anything else.
    public static func rfc3339(seconds interval: Double) -> String? {
        guard interval >= 0, interval < 253_402_300_800, interval.rounded(.down) == interval else { return nil }
        let seconds = Int(interval)
        let days = seconds / 86400
        let time = seconds % 86400
        // Howard Hinnant's civil_from_days (days since 1970-01-01, non-negative here).
        let z = days + 719468
        let era = z / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int, _ count: Int) -> String {
            var text = String(value)
            while text.utf8.count < count { text = "0" + text }
            return text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(time / 3600, 2) + ":"
            + digits(time / 60 % 60, 2) + ":" + digits(time % 60, 2) + "Z"
    }
}

/// Unpadded base64url (RFC 4648 §5), as JOSE and PKCE use it.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingEvery("+", with: "-")
            .replacingEvery("/", with: "_")
            .replacingEvery("=", with: "")
    }

    public static func decode(_ string: some StringProtocol) -> Data? {
        var base64 = string.replacingEvery("-", with: "+").replacingEvery("_", with: "/")
        guard !base64.contains("=") || string.isEmpty else { return nil }
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }
}

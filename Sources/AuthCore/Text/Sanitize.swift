/// Makes untrusted text safe for a terminal: control characters dropped, length bounded.
public enum Sanitize {
    public static func text(_ text: String, limit: Int = 200) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    !ScalarSet.controlCharacters.contains($0) && $0.properties.generalCategory != .format
                }))
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }
}

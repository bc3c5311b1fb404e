/// What a person pastes in `--manual` mode, turned into the request the browser would have
/// sent to the listener, so that the same `CallbackStateMachine` judges it (path, state,
/// `iss`, errors): the redirect URL the browser ended on (query string), or the form body a
/// `form_post` page posted (`code=…&state=…`).
public enum PastedResponse {
    public static func request(from text: String, redirectPath: String) -> ReceivedRequest {
        let pasted = text.trimming(.whitespacesAndNewlines)
        if pasted.contains("://"), let url = URLComponents(string: pasted) {
            let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
            // The query only: a code in a fragment is refused (docs/security.md), as the listener,
            // which never sees fragments, refuses it.
            let query = url.percentEncodedQuery ?? ""
            return ReceivedRequest(method: "GET", target: path + "?" + query)
        }
        let body = pasted.hasPrefix("?") ? String(pasted.dropFirst()) : pasted
        return ReceivedRequest(
            method: "POST", target: redirectPath, headers: ["content-type": "application/x-www-form-urlencoded"], body: Data(body.utf8))
    }
}

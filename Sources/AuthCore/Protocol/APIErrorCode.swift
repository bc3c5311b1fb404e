extension HTTPResponse {
    /// The code of a JSON API error body in the OData style
    /// (`{"error": {"code": "ImageNotFound", "message": …}}`), sanitized; nil otherwise.
    /// Microsoft Graph answers so (its profile and photo).
    var apiErrorCode: String? {
        JSONValue.object(from: body)?["error"]?.objectValue?["code"]?.stringValue.map { Sanitize.text($0, limit: 64) }
    }
}

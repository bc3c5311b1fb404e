/// The scopes a first sign-in to a resource asks for (the MCP authorization spec's scope
/// selection, docs/resources.md): those given (`--scope`), else the `scope` of the resource's
/// challenge, else its `scopes_supported`, else none (the server's default).
public enum ResourceScopes {
    public static func first(given: [String], challenge: [String]?, supported: [String]?) -> [String] {
        if !given.isEmpty { return given }
        if let challenge, !challenge.isEmpty { return challenge }
        return supported ?? []
    }
}

import Crypto
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret, loaded with
/// `dlopen` on first use like libcurl: a build and a user who never seal with the keyring
/// need neither. One item per key, found by its attributes (`application` = `authctl`,
/// `key-id` = the sealing's random `keyringItem`), holding the key in base64.
public struct SecretServiceKeyring: KeystoreKeyring {
    public init() {}

    public func wrappingKey(item: String) throws -> SymmetricKey {
        let library = try LibSecret.shared()
        let text: String
        switch try library.lookup(attributes: Self.attributes(item)) {
        case .found(let found): text = found
        case .locked:
            throw AuthError.keystore(
                "the system keyring holds the key of this keystore (item \(item)), but it is locked, or the prompt to unlock it was dismissed. Unlock the keyring (log in to the desktop session, or unlock it in your keyring manager, such as Passwords and Keys), then run the command again. Nothing was changed"
            )
        case .missing(let maybeLocked):
            throw AuthError.keystore(
                "the system keyring holds no key for this keystore (item \(item)): it was removed, or this is another session's keyring\(maybeLocked ? " (or the keyring is locked: this libsecret cannot tell; unlock it and try again)" : ""). Restore it, or seal the keystore again from a backup"
            )
        }
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
            throw AuthError.keystore("the system keyring's item \(item) is not a key. Restore it, or seal the keystore again")
        }
        return SymmetricKey(data: bytes)
    }

    public func store(_ key: SymmetricKey, item: String, label: String) throws {
        let text = key.withUnsafeBytes { Data($0) }.base64EncodedString()
        try LibSecret.shared().store(attributes: Self.attributes(item), label: label, password: text)
    }

    public func remove(item: String) {
        try? LibSecret.shared().clear(attributes: Self.attributes(item))
    }

    static func attributes(_ item: String) -> [(String, String)] { [("application", "authctl"), ("key-id", item)] }
}

/// The few libsecret and GLib functions the keyring uses, resolved once. Only the
/// non-variadic `…v_sync` calls, with a `GHashTable` of attributes, so no C shim is needed.
final class LibSecret: @unchecked Sendable {
    private typealias HashTableNew = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    private typealias HashTableInsert = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias Unref = @convention(c) (OpaquePointer?) -> Void
    private typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private typealias Store =
        @convention(c) (
            UnsafeRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?,
            UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> Int32
    private typealias Lookup =
        @convention(c) (UnsafeRawPointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) ->
        UnsafeMutablePointer<CChar>?
    private typealias Clear =
        @convention(c) (UnsafeRawPointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32
    private typealias PasswordFree = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    private typealias Search =
        @convention(c) (UnsafeRawPointer?, OpaquePointer?, Int32, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) ->
        UnsafeMutableRawPointer?
    private typealias ListFreeFull = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    private let hashTableNew: HashTableNew
    private let hashTableInsert: HashTableInsert
    private let hashTableUnref: Unref
    private let errorFree: ErrorFree
    private let strHash: UnsafeMutableRawPointer
    private let strEqual: UnsafeMutableRawPointer
    private let storeSync: Store
    private let lookupSync: Lookup
    private let clearSync: Clear
    private let passwordFree: PasswordFree
    /// `secret_password_searchv_sync` (libsecret 0.19), `g_list_free_full` and
    /// `g_object_unref`: whether a locked item exists. Nil with an older libsecret.
    private let searchSync: Search?
    private let listFreeFull: ListFreeFull?
    private let objectUnref: UnsafeMutableRawPointer?
    /// A `SecretSchema` laid out by hand (secret-schema.h): its name, flags 0, two string
    /// attributes, the rest zero. Lives as long as the process.
    private let schema: UnsafeMutableRawPointer

    private static let loaded = Mutex<LibSecret?>(nil)

    static func shared() throws -> LibSecret {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let library = try LibSecret()
            loaded = library
            return library
        }
    }

    private init() throws {
        guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libsecret-1.so", RTLD_NOW | RTLD_LOCAL),
            let glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL)
        else {
            throw AuthError.keystore(
                "libsecret could not be loaded, so authctl cannot use the system keyring. Install it (Debian and Ubuntu: apt-get install libsecret-1-0), or use a key file"
            )
        }
        func symbol<T>(_ library: UnsafeMutableRawPointer, _ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(library, name) else {
                throw AuthError.keystore(
                    "the installed libsecret or GLib lacks \(name). Install libsecret 0.18 or later, or use a key file")
            }
            return unsafeBitCast(address, to: type)
        }
        hashTableNew = try symbol(glib, "g_hash_table_new", as: HashTableNew.self)
        hashTableInsert = try symbol(glib, "g_hash_table_insert", as: HashTableInsert.self)
        hashTableUnref = try symbol(glib, "g_hash_table_unref", as: Unref.self)
        errorFree = try symbol(glib, "g_error_free", as: ErrorFree.self)
        strHash = try symbol(glib, "g_str_hash", as: UnsafeMutableRawPointer.self)
        strEqual = try symbol(glib, "g_str_equal", as: UnsafeMutableRawPointer.self)
        storeSync = try symbol(handle, "secret_password_storev_sync", as: Store.self)
        lookupSync = try symbol(handle, "secret_password_lookupv_sync", as: Lookup.self)
        clearSync = try symbol(handle, "secret_password_clearv_sync", as: Clear.self)
        passwordFree = try symbol(handle, "secret_password_free", as: PasswordFree.self)
        let gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL)
        searchSync = dlsym(handle, "secret_password_searchv_sync").map { unsafeBitCast($0, to: Search.self) }
        listFreeFull = dlsym(glib, "g_list_free_full").map { unsafeBitCast($0, to: ListFreeFull.self) }
        objectUnref = gobject.flatMap { dlsym($0, "g_object_unref") }
        schema = Self.makeSchema(name: "org.authctl.KeystoreKey", attributes: ["application", "key-id"])
    }

    /// struct SecretSchema { const gchar *name; SecretSchemaFlags flags; SecretSchemaAttribute
    /// attributes[32]; gint reserved; gpointer reserved1…7; } with SecretSchemaAttribute
    /// { const gchar *name; SecretSchemaAttributeType type; }: 8 + 8 + 32 × 16 + 8 + 7 × 8 bytes
    /// on a 64-bit system. Type 0 is SECRET_SCHEMA_ATTRIBUTE_STRING; flags 0 is NONE.
    private static func makeSchema(name: String, attributes: [String]) -> UnsafeMutableRawPointer {
        let size = 8 + 8 + 32 * 16 + 8 + 7 * 8
        let schema = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        schema.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        schema.storeBytes(of: UnsafeRawPointer(strdup(name)), as: UnsafeRawPointer?.self)
        for (index, attribute) in attributes.prefix(31).enumerated() {
            schema.storeBytes(of: UnsafeRawPointer(strdup(attribute)), toByteOffset: 16 + index * 16, as: UnsafeRawPointer?.self)
        }
        return schema
    }

    /// Runs `body` with a GHashTable of the attributes (C strings alive for the call).
    private func withAttributes<T>(_ attributes: [(String, String)], _ body: (OpaquePointer?) throws -> T) throws -> T {
        guard let table = hashTableNew(strHash, strEqual) else { throw AuthError.internalError("g_hash_table_new failed") }
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer {
            hashTableUnref(table)
            strings.forEach { free($0) }
        }
        for (key, value) in attributes {
            guard let key = strdup(key), let value = strdup(value) else { throw AuthError.internalError("strdup failed") }
            strings += [key, value]
            _ = hashTableInsert(table, key, value)
        }
        return try body(table)
    }

    /// The message of a GError (struct GError { GQuark domain; gint code; gchar *message; }), freed.
    private func take(_ error: UnsafeMutableRawPointer?) -> String {
        guard let error else { return "no reason given" }
        defer { errorFree(error) }
        guard let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self) else { return "no reason given" }
        return Sanitize.text(String(cString: message))
    }

    private func failure(_ what: String, _ error: UnsafeMutableRawPointer?) -> AuthError {
        AuthError.keystore(
            "the system keyring could not \(what) (\(take(error))). Unlock it (log in to the desktop session), or use a key file")
    }

    /// What a lookup found.
    enum Found: Equatable {
        case found(String)
        /// The item exists, but its collection stayed locked (locked, or the prompt to unlock it dismissed).
        case locked
        /// No such item; `maybeLocked` when this libsecret cannot tell a locked one apart.
        case missing(maybeLocked: Bool)
    }

    /// The item's secret. libsecret answers a locked item whose unlock prompt was dismissed (or
    /// could not show) as it answers a missing one, with nothing and no error; so a second
    /// search, of locked items too and without unlocking, tells the two apart.
    func lookup(attributes: [(String, String)]) throws -> Found {
        try withAttributes(attributes) { table in
            var error: UnsafeMutableRawPointer?
            let password = lookupSync(schema, table, nil, &error)
            if let error { throw failure("be read", error) }
            if let password {
                defer { passwordFree(password) }
                return .found(String(cString: password))
            }
            guard let searchSync, let listFreeFull, let objectUnref else { return .missing(maybeLocked: true) }
            var searchError: UnsafeMutableRawPointer?
            // SECRET_SEARCH_ALL (1 << 1): locked items too; no SECRET_SEARCH_UNLOCK, so no prompt.
            let items = searchSync(schema, table, 1 << 1, nil, &searchError)
            if let searchError { throw failure("be searched", searchError) }
            guard let items else { return .missing(maybeLocked: false) }
            listFreeFull(items, objectUnref)
            return .locked
        }
    }

    func store(attributes: [(String, String)], label: String, password: String) throws {
        try withAttributes(attributes) { table in
            var error: UnsafeMutableRawPointer?
            guard storeSync(schema, table, nil, label, password, nil, &error) != 0 else { throw failure("store the key", error) }
        }
    }

    func clear(attributes: [(String, String)]) throws {
        try withAttributes(attributes) { table in
            var error: UnsafeMutableRawPointer?
            _ = clearSync(schema, table, nil, &error)
            if let error { throw failure("remove the old key", error) }
        }
    }
}

import Testing

@testable import AuthCore

/// `authctl lock` finds a key kept in another session by its line in /proc/keys.
@Suite("KernelKeyring: the keys of a /proc/keys listing")
struct KernelKeyringListingTests {
    static let listing = """
        00255964 I--Q---     2 perm 1f3f0000     0 65534 keyring   _uid.0: 1
        2dfec43b I--Q---     1 59m  3f090000  1000  1000 user      authctl:/home/ada/my keys/keystore.json: 32
        2dfec43c I--Q---     1 expd 3f0b0000  1000  1000 user      authctl:/home/ada/my keys/keystore.json: 32
        2dfec43d I--Q---     1 59m  3f090000  1001  1001 user      authctl:/home/ada/my keys/keystore.json: 32
        2dfec43e I--Q---     1 59m  3f090000  1000  1000 user      authctl:/home/ada/my keys/keystore.json.old: 32
        2dfec43f I--Q---     1 59m  3f090000  1000  1000 logon     authctl:/home/ada/my keys/keystore.json: 32
        2dfec440 I-R----     1 perm 3f090000  1000  1000 user      authctl:/home/ada/my keys/keystore.json
        """

    @Test("the user's own user keys of that exact name (a path with spaces), expired or revoked too; nobody else's, no other name or type")
    func ids() {
        let ids = KernelKeyring.keyIDs(inProcKeys: Self.listing, description: "authctl:/home/ada/my keys/keystore.json", uid: 1000)
        #expect(ids == [0x2dfe_c43b, 0x2dfe_c43c, 0x2dfe_c440])
        #expect(KernelKeyring.keyIDs(inProcKeys: "garbage\n\n 1 2", description: "authctl:/x", uid: 0).isEmpty)
    }
}

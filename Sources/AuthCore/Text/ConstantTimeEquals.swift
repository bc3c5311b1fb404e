/// Compares two secrets (`state`, `nonce`, the start URL's path) in time that depends on
/// their lengths only, never on where they first differ, so that a caller who can time the
/// answers learns nothing of the expected value (RFC 6749 §10.10's guessing attacks).
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
}

#include "keyctl_shim.h"

#if defined(__linux__)
#include <errno.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// keyrings(7): possessor all; the user view and search, not read: a session that does not
// possess the key cannot read it, but `authctl lock` there finds it (/proc/keys lists what the
// user may view) and invalidates it (search permission); group and others nothing.
#define AUTHCTL_KEY_PERM 0x3f090000

static long keyring_id(long special) { return syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, special, 0); }

int authctl_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds) {
    long session = keyring_id(KEY_SPEC_SESSION_KEYRING);
    long user_session = keyring_id(KEY_SPEC_USER_SESSION_KEYRING);
    // Without a session keyring of its own, the process sees the user-session keyring as its
    // session keyring; a key is then kept in the user keyring, which outlives the process.
    long keyring = (session < 0 || session == user_session) ? KEY_SPEC_USER_KEYRING : session;
    long key = syscall(SYS_add_key, "user", description, payload, length, keyring);
    if (key < 0) return -1;
    if (syscall(SYS_keyctl, KEYCTL_SETPERM, key, AUTHCTL_KEY_PERM) < 0 ||
        syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, key, timeout_seconds) < 0) {
        int saved = errno;
        syscall(SYS_keyctl, KEYCTL_INVALIDATE, key);
        errno = saved;
        return -1;
    }
    return 0;
}

static long search(const char *description) {
    long key = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", description, 0);
    if (key >= 0) return key;
    return syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", description, 0);
}

long authctl_keyring_read(const char *description, void *buffer, size_t capacity) {
    long key = search(description);
    if (key < 0) return -1;
    return syscall(SYS_keyctl, KEYCTL_READ, key, buffer, capacity);
}

int authctl_keyring_remove(const char *description) {
    int removed = 0;
    for (int i = 0; i < 8; i++) {
        long key = search(description);
        if (key < 0 || syscall(SYS_keyctl, KEYCTL_INVALIDATE, key) < 0) break;
        removed++;
    }
    return removed;
}

int authctl_keyring_invalidate(long key) { return syscall(SYS_keyctl, KEYCTL_INVALIDATE, key) < 0 ? -1 : 0; }

#else
#include <errno.h>
int authctl_keyring_invalidate(long key) {
    (void)key;
    errno = ENOSYS;
    return -1;
}
int authctl_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds) {
    (void)description; (void)payload; (void)length; (void)timeout_seconds;
    errno = ENOSYS;
    return -1;
}
long authctl_keyring_read(const char *description, void *buffer, size_t capacity) {
    (void)description; (void)buffer; (void)capacity;
    errno = ENOSYS;
    return -1;
}
int authctl_keyring_remove(const char *description) { (void)description; return 0; }
#endif

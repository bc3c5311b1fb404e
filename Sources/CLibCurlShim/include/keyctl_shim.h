#ifndef AUTHCTL_KEYCTL_SHIM_H
#define AUTHCTL_KEYCTL_SHIM_H

// The kernel's key retention service (keyrings(7)), for `authctl unlock`: glibc has no
// wrappers for add_key(2) and keyctl(2), and syscall(2) is variadic, which Swift cannot
// call. These make the system calls as the variadic calls they are; no library
// (libkeyutils) is needed.

#include <stddef.h>

/// Adds (or replaces) a "user" key named `description` holding `payload`: in the calling
/// process's session keyring when it has one of its own, else in the user keyring (a
/// session keyring made for this process would end with it). The key may be viewed, read
/// and searched by its possessors; viewed and searched, not read, by the user (so that `lock`
/// in another session of the user finds and invalidates it); by no one else. It expires
/// after `timeout_seconds`. Returns 0, or -1 with errno.
int authctl_keyring_add(const char *description, const void *payload, size_t length, unsigned timeout_seconds);

/// Reads the "user" key named `description` (the session keyring searched first, then the
/// user keyring) into `buffer`. Returns its length (which may exceed `capacity`: then
/// nothing is read whole), or -1 with errno (ENOKEY: none; EKEYEXPIRED: timed out).
long authctl_keyring_read(const char *description, void *buffer, size_t capacity);

/// Invalidates every "user" key named `description` the process can find. Returns how many.
int authctl_keyring_remove(const char *description);

/// Invalidates the key `key` (an id from /proc/keys): the caller needs search permission on
/// it. Returns 0, or -1 with errno.
int authctl_keyring_invalidate(long key);

#endif

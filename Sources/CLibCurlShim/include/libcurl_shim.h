#ifndef AUTHCTL_LIBCURL_SHIM_H
#define AUTHCTL_LIBCURL_SHIM_H

// libcurl's `curl_easy_setopt` and `curl_easy_getinfo` are variadic C functions. Swift cannot
// call a variadic C function through a pointer, and calling it through a non-variadic
// prototype is undefined behaviour (it only happens to work where the calling conventions
// agree). CurlTransport resolves both with dlsym and calls them through these wrappers,
// which make the call as the variadic call it is. No libcurl header is needed: the few
// types are declared here with libcurl's ABI (curl.h: CURLcode and CURLoption/CURLINFO are
// enums, curl_off_t is a 64-bit integer on every platform authctl builds for).

#include <stddef.h>
#include <stdint.h>

/// A `CURL *` easy handle (opaque).
typedef struct authctl_curl authctl_curl;

/// CURLOPT_WRITEFUNCTION / CURLOPT_HEADERFUNCTION: `size_t (*)(char *, size_t, size_t, void *)`.
typedef size_t (*authctl_curl_data_callback)(char *data, size_t size, size_t count, void *context);
/// CURLOPT_XFERINFOFUNCTION: `int (*)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)`.
typedef int (*authctl_curl_xferinfo_callback)(void *context, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow);

// `setopt` is the address of `curl_easy_setopt`, `getinfo` that of `curl_easy_getinfo`;
// each returns the CURLcode. One wrapper per argument type libcurl documents for options:
// long, object pointer, curl_off_t, function pointer.
int authctl_curl_setopt_long(void *setopt, authctl_curl *easy, int option, long value);
int authctl_curl_setopt_pointer(void *setopt, authctl_curl *easy, int option, const void *value);
int authctl_curl_setopt_off_t(void *setopt, authctl_curl *easy, int option, int64_t value);
int authctl_curl_setopt_data_callback(void *setopt, authctl_curl *easy, int option, authctl_curl_data_callback value);
int authctl_curl_setopt_xferinfo_callback(void *setopt, authctl_curl *easy, int option, authctl_curl_xferinfo_callback value);
/// CURLINFO_LONG queries (CURLINFO_RESPONSE_CODE).
int authctl_curl_getinfo_long(void *getinfo, authctl_curl *easy, int info, long *value);

#endif

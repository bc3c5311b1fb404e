#include "libcurl_shim.h"

// The prototypes of curl.h: CURLcode curl_easy_setopt(CURL *, CURLoption, ...) and
// CURLcode curl_easy_getinfo(CURL *, CURLINFO, ...). Each wrapper passes exactly one
// variadic argument of the type the option expects.
typedef int (*variadic_easy_call)(authctl_curl *, int, ...);

int authctl_curl_setopt_long(void *setopt, authctl_curl *easy, int option, long value) {
    return ((variadic_easy_call)setopt)(easy, option, value);
}

int authctl_curl_setopt_pointer(void *setopt, authctl_curl *easy, int option, const void *value) {
    return ((variadic_easy_call)setopt)(easy, option, value);
}

int authctl_curl_setopt_off_t(void *setopt, authctl_curl *easy, int option, int64_t value) {
    return ((variadic_easy_call)setopt)(easy, option, value);
}

int authctl_curl_setopt_data_callback(void *setopt, authctl_curl *easy, int option, authctl_curl_data_callback value) {
    return ((variadic_easy_call)setopt)(easy, option, value);
}

int authctl_curl_setopt_xferinfo_callback(void *setopt, authctl_curl *easy, int option, authctl_curl_xferinfo_callback value) {
    return ((variadic_easy_call)setopt)(easy, option, value);
}

int authctl_curl_getinfo_long(void *getinfo, authctl_curl *easy, int info, long *value) {
    return ((variadic_easy_call)getinfo)(easy, info, value);
}

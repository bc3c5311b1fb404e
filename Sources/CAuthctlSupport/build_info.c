#include "authctl_support.h"

// Package.swift defines AUTHCTL_COMMIT for this target alone from the environment variable
// of the same name, so that a new commit recompiles this file and nothing else.
#ifndef AUTHCTL_COMMIT
#define AUTHCTL_COMMIT "unknown"
#endif

const char *authctl_build_commit(void) { return AUTHCTL_COMMIT; }

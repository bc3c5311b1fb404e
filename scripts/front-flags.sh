#!/usr/bin/env bash
# The flags that compile the token front (Sources/authctl-front with the whole of
# Sources/CachedTokenCore, one Embedded Swift module): scripts/build-front.sh builds with them,
# scripts/lint.sh type-checks with them.
echo "-target x86_64-unknown-linux-gnu -enable-experimental-feature Embedded -wmo -parse-as-library -D AUTHCTL_FRONT" \
    "-I Sources/authctl-front/include -module-name AuthctlFront"

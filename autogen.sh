#!/bin/sh
# Regenerate the build system (needs autoconf, automake, autoconf-archive, pkg-config).
set -e
cd "$(dirname "$0")"
autoreconf -fi

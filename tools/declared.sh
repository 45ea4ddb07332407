#!/bin/sh
# The public names include/corral/corral.h declares, one a line, sorted:
# the functions it declares with CORRAL_API and the parts' tables
# (corral_part_<name>, CORRAL_API by CORRAL_PARTS(X)). What the shared
# library must export, no more (tools/exports.sh, tools/platforms.sh).
set -eu
cd "$(dirname "$0")/.."
{
    grep -oE '^CORRAL_API [^(]*\bcorral_[a-z0-9_]+\(' include/corral/corral.h |
        sed -E 's/.*\b(corral_[a-z0-9_]+)\($/\1/'
    awk '/^#define CORRAL_PARTS\(X\)/ { on = 1; next }
         on { if (match($0, /X\([a-z0-9_]+\)/)) print "corral_part_" substr($0, RSTART + 2, RLENGTH - 3)
              if ($0 !~ /\\$/) on = 0 }' include/corral/corral.h
} | sort

#!/bin/sh
# The browser test: build the samples' site (tools/web.sh), serve it on
# 127.0.0.1 and open every sample in Debian's headless chromium, driven by
# puppeteer-core from npm (tests/web/run.mjs): a fixed number of frames
# each, failing on a console error, a blank canvas or an inspector that
# disagrees with the sample's own log. Screenshots go to build/web/shots;
# --docs also copies the inspector's to docs/inspector.png (the README's).
# Installs chromium, nodejs, npm and node-acorn from Debian when missing.
set -eu
cd "$(dirname "$0")/.."
need=""
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v node >/dev/null 2>&1 || need="$need nodejs"
command -v npm >/dev/null 2>&1 || need="$need npm"
[ -d /usr/share/nodejs/acorn ] || need="$need node-acorn"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "web_test: installing:$need"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
    else
        echo "web_test: needs:$need (sudo apt-get install$need)" >&2
        exit 1
    fi
fi
./tools/web.sh
(cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
node tests/web/run.mjs build/web/site build/web/shots
if [ "${1:-}" = "--docs" ]; then cp build/web/shots/waves.png docs/inspector.png; fi

#!/usr/bin/env bash
# Tests the editor integrations: the VS Code extension's TextMate grammar
# (editors/vscode/test/grammar/*.test.relay, run with vscode-tmgrammar-test) and the
# TypeScript build of the extension. Needs node and npm; installs the extension's
# dependencies with `npm ci` when node_modules is missing. Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ext="$root/editors/vscode"

if ! command -v npm >/dev/null 2>&1; then
  echo "test-editors: npm is not installed (node 18 or newer is needed)" >&2
  exit 1
fi

cd "$ext"
if [ ! -d node_modules ]; then
  echo "test-editors: npm ci"
  npm ci --no-audit --no-fund
fi

echo "test-editors: grammar tests"
npm run --silent test:grammar

echo "test-editors: compile the extension"
npm run --silent compile

echo "test-editors: ok"

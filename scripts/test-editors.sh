#!/usr/bin/env bash
# Tests the editor integrations: the VS Code extension's TextMate grammar
# (editors/vscode/test/grammar/*.test.relay, run with vscode-tmgrammar-test) and the
# TypeScript build of the extension with its esbuild bundle (dist/extension.js), and the debugger contribution's tests against
# `relay dap` (test/debug, @vscode/debugadapter-testsupport's DebugClient). Needs node and npm; installs the extension's
# dependencies with `npm ci` when node_modules is missing. Exits non-zero on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The tree-sitter grammar's corpus tests (skipped when the tree-sitter CLI is not built).
"$root/editors/tree-sitter-relay/test.sh"
ext="$root/editors/vscode"

if ! command -v npm >/dev/null 2>&1; then
  echo "test-editors: npm is not installed (node 18 or newer is needed)" >&2
  exit 1
fi

cd "$ext"
# Install when the dependencies are missing or older than the lock file (a new dependency
# was added since the last install).
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "test-editors: npm ci"
  npm ci --no-audit --no-fund
fi

echo "test-editors: grammar tests"
npm run --silent test:grammar

echo "test-editors: compile the extension"
npm run --silent compile

# The debugger contribution against the real adapter (`relay dap`), driven by VS Code's own
# DebugClient: needs a built relay binary ($RELAY_BINARY, else build/asan, else
# build/release).
relay="${RELAY_BINARY:-}"
for candidate in "$root/build/asan/relay" "$root/build/release/relay"; do
  if [ -z "$relay" ] && [ -x "$candidate" ]; then relay="$candidate"; fi
done
if [ -z "$relay" ]; then
  echo "test-editors: no relay binary (set RELAY_BINARY or build first)" >&2
  exit 1
fi
echo "test-editors: debug adapter tests with $relay"
RELAY_BINARY="$relay" npm run --silent test:debug

echo "test-editors: ok"

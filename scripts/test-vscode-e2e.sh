#!/usr/bin/env bash
# The VS Code extension end to end in a real VS Code: builds the .vsix
# (scripts/package-vsix.sh), installs code-server (scripts/vscode-tools.sh, cached), and runs
# editors/vscode/test/e2e/vscode_e2e.js, which installs the .vsix into a private code-server
# on 127.0.0.1, drives it in Debian's headless Chromium (puppeteer-core) and checks the type
# error's squiggle and Problems entry, the hover's inferred type and the completion of
# `nn.so` to `nn.softmax` against `relay lsp`.
#
#   scripts/test-vscode-e2e.sh            relay from $RELAY_BINARY, else build/asan, else build/release
#
# Screenshots and code-server's log go to $VSCODE_E2E_ARTIFACTS (default
# build/test-logs/vscode-e2e). Exit status: 0 passed, 1 failed, 77 skipped (the CTest skip
# code) only when code-server cannot be installed on this machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/vscode-tools.sh"
SKIP=77

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "test-vscode-e2e: FAIL: $tool is missing (scripts/setup.sh)"; exit 1; }
done
chromium=/usr/bin/chromium
[ -x "$chromium" ] || { echo "test-vscode-e2e: FAIL: $chromium is missing (scripts/setup.sh)"; exit 1; }
relay="${RELAY_BINARY:-}"
for candidate in "$root/build/asan/relay" "$root/build/release/relay"; do
  if [ -z "$relay" ] && [ -x "$candidate" ]; then relay="$candidate"; fi
done
[ -n "$relay" ] || { echo "test-vscode-e2e: FAIL: no relay binary (set RELAY_BINARY or build first)"; exit 1; }
[ -x "$relay" ] || { echo "test-vscode-e2e: FAIL: $relay is not an executable"; exit 1; }
artifacts="${VSCODE_E2E_ARTIFACTS:-$root/build/test-logs/vscode-e2e}"
rm -rf "$artifacts" && mkdir -p "$artifacts"

if ! vscode_code_server; then
  echo "test-vscode-e2e: SKIP: code-server $CODE_SERVER_VERSION cannot be installed here (see above)"
  exit "$SKIP"
fi
vscode_e2e_tools
vsix="$("$root/scripts/package-vsix.sh" | tail -n 1)"
echo "test-vscode-e2e: $vsix in code-server $CODE_SERVER_VERSION with $relay"
NODE_PATH="$VSCODE_TOOLS_MODULES" node "$root/editors/vscode/test/e2e/vscode_e2e.js" \
  "$CODE_SERVER_ENTRY" "$vsix" "$relay" "$artifacts" "$chromium"
echo "test-vscode-e2e: screenshots in $artifacts"

#!/usr/bin/env bash
# Builds the VS Code extension's installable package with @vscode/vsce:
#
#   scripts/package-vsix.sh [OUT.vsix]     default build/editors/relay-lang-VERSION.vsix
#
# vsce runs the extension's `vscode:prepublish`: the TypeScript build into out/, then esbuild
# bundles out/ with its production dependencies (vscode-languageclient and what it needs)
# into the one file dist/extension.js that package.json's `main` names. The package holds
# that file, the grammar, snippets, language configuration and README, and no
# node_modules (--no-dependencies; .vscodeignore keeps out/, the sources and tests out).
# vsce comes from the cache that scripts/vscode-tools.sh fills, not from git.
# Install the result with `code --install-extension OUT.vsix` (editors/vscode/README.md).
# Prints the package's path on the last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/vscode-tools.sh"

version="$(node -p 'require(process.argv[1]).version' "$root/editors/vscode/package.json")"
out="${1:-$root/build/editors/relay-lang-$version.vsix}"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

vscode_extension_deps
vscode_e2e_tools
# No repository field and no LICENSE file in the extension folder: say so rather than have
# vsce stop at its questions (stdin is closed for the same reason).
(cd "$root/editors/vscode" &&
  "$VSCODE_TOOLS_MODULES/.bin/vsce" package --no-dependencies --allow-missing-repository --skip-license --out "$out" </dev/null)
echo "$out"

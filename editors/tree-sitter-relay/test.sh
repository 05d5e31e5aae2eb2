#!/usr/bin/env bash
# The grammar's own tests with the tree-sitter CLI: the corpus tests (test/corpus/*.txt,
# one per construct) and a check that the committed src/parser.c is what grammar.js
# generates. Skipped (exit 0, with a note) when the CLI is not built: the C++ acceptance
# test (ctest -R tree_sitter) covers the committed parser without it.
#   TREE_SITTER=/path/to/tree-sitter editors/tree-sitter-relay/test.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ts="${TREE_SITTER:-}"
if [ -z "$ts" ]; then
  for c in "${TREE_SITTER_CLI_DIR:-/tmp/tree-sitter-cli}/bin/tree-sitter" "$(command -v tree-sitter || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then ts="$c"; break; fi
  done
fi
if [ -z "$ts" ]; then
  echo "tree-sitter-relay: no tree-sitter CLI (RELAY_TREE_SITTER_CLI=1 scripts/setup.sh builds it); corpus tests skipped"
  exit 0
fi
# Compiled test parsers go to a scratch cache, not the user's.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_HOME="$scratch/config"
work="$scratch/grammar"
mkdir -p "$work"
cp -r "$here/grammar.js" "$here/src" "$here/test" "$work/"
cd "$work"
"$ts" generate --no-bindings
if ! cmp -s src/parser.c "$here/src/parser.c"; then
  echo "tree-sitter-relay: src/parser.c is stale: run \`tree-sitter generate --no-bindings\` in editors/tree-sitter-relay and commit it" >&2
  exit 1
fi
"$ts" test
echo "tree-sitter-relay: ok"

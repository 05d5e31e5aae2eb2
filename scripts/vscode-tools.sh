# Sourced by scripts/package-vsix.sh and scripts/test-vscode-e2e.sh: installs, into a cache
# folder outside git, what packaging the VS Code extension and testing it in a real VS Code
# need from npm:
#   * the tools in editors/vscode/test/e2e/package.json (@vscode/vsce, puppeteer-core),
#     exactly as its package-lock.json pins them;
#   * code-server (VS Code's workbench served to a browser), a release whose Node engine is
#     the Node 20 that scripts/setup.sh installs.
# The cache is $RELAY_EDITORS_CACHE, by default ~/.cache/relay-editors, so that a fresh
# clone on the same machine (CI) finds it warm. Each install goes to a folder named
# *.partial and is renamed only once complete, so an interrupted install is redone, never
# half used.

VSCODE_TOOLS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RELAY_EDITORS_CACHE="${RELAY_EDITORS_CACHE:-$HOME/.cache/relay-editors}"
# 4.100.3 is the newest code-server whose package.json asks for Node 20 (later ones: 22).
CODE_SERVER_VERSION=4.100.3

# The extension's own dependencies (vscode-languageclient; typescript to compile it), when
# missing or older than its lock file.
vscode_extension_deps() {
  local ext="$VSCODE_TOOLS_ROOT/editors/vscode"
  if [ ! -d "$ext/node_modules" ] || [ "$ext/package-lock.json" -nt "$ext/node_modules/.package-lock.json" ]; then
    echo "vscode-tools: npm ci in editors/vscode"
    (cd "$ext" && npm ci --no-audit --no-fund) || return 1
  fi
}

# Sets VSCODE_TOOLS_MODULES to a node_modules folder holding vsce and puppeteer-core.
# Reinstalled when the committed lock file changes (its copy in the cache is compared).
vscode_e2e_tools() {
  local src="$VSCODE_TOOLS_ROOT/editors/vscode/test/e2e"
  local dir="$RELAY_EDITORS_CACHE/tools"
  VSCODE_TOOLS_MODULES="$dir/node_modules"
  if [ -d "$VSCODE_TOOLS_MODULES" ] && cmp -s "$src/package-lock.json" "$dir/package-lock.json"; then
    return 0
  fi
  echo "vscode-tools: installing vsce and puppeteer-core into $dir"
  rm -rf "$dir.partial" && mkdir -p "$dir.partial" || return 1
  cp "$src/package.json" "$src/package-lock.json" "$dir.partial/" || return 1
  # No install scripts: none of these needs one (keytar, vsce's optional secret store for
  # publishing, would try to download a prebuilt binary).
  (cd "$dir.partial" && npm ci --ignore-scripts --no-audit --no-fund) || return 1
  rm -rf "$dir" && mv "$dir.partial" "$dir"
}

# npm's own node-gyp, which builds native modules against the installed Node headers.
vscode_node_gyp() {
  local npm_dir
  npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  for candidate in "$npm_dir/node_modules/node-gyp/bin/node-gyp.js" /usr/share/nodejs/node-gyp/bin/node-gyp.js; do
    if [ -f "$candidate" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}

# Sets CODE_SERVER_ENTRY to code-server's out/node/entry.js (run it with node). Returns
# non-zero, having said why, when code-server cannot be installed here.
#
# A plain `npm install code-server` runs install scripts that download from GitHub
# (@vscode/ripgrep's `rg`, prebuilt native modules), which this machine and CI cannot reach.
# So scripts/install-code-server.sh installs without scripts, does by hand what
# code-server's postinstall.sh does (install lib/vscode's and its extensions' production
# dependencies, link node_modules.asar), puts Debian's rg where @vscode/ripgrep looks for
# it, and builds the native modules from source with npm's node-gyp against the installed
# Node headers. Nothing then leaves the npm registry.
vscode_code_server() {
  local dir="$RELAY_EDITORS_CACHE/code-server-$CODE_SERVER_VERSION"
  CODE_SERVER_ENTRY="$dir/node_modules/code-server/out/node/entry.js"
  if [ -f "$dir/.installed" ] && [ -f "$CODE_SERVER_ENTRY" ]; then return 0; fi

  local node_major
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  if [ "$node_major" != 20 ]; then
    echo "vscode-tools: code-server $CODE_SERVER_VERSION needs Node 20, this is Node $node_major"
    return 1
  fi
  local rg node_gyp node_dir
  rg="$(command -v rg)" || { echo "vscode-tools: rg is missing (Debian package ripgrep)"; return 1; }
  node_gyp="$(vscode_node_gyp)" || { echo "vscode-tools: npm's node-gyp was not found"; return 1; }
  node_dir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  if [ ! -f "$node_dir/include/node/node.h" ]; then
    echo "vscode-tools: the Node headers ($node_dir/include/node) are missing"
    return 1
  fi

  echo "vscode-tools: installing code-server $CODE_SERVER_VERSION into $dir (takes a minute or two)"
  local t0=$SECONDS
  rm -rf "$dir.partial" && mkdir -p "$dir.partial" || return 1
  "$VSCODE_TOOLS_ROOT/scripts/install-code-server.sh" "$dir.partial" "$CODE_SERVER_VERSION" "$rg" "$node_gyp" \
      "$node_dir" || { echo "vscode-tools: the code-server install failed"; return 1; }
  touch "$dir.partial/.installed"
  rm -rf "$dir" && mv "$dir.partial" "$dir" || return 1
  echo "vscode-tools: code-server installed in $((SECONDS - t0))s"
}

#!/usr/bin/env bash
# Installs code-server into DEST without running any npm install script (they download from
# GitHub), building its native modules from source instead. Called by vscode_code_server in
# scripts/vscode-tools.sh, which checks the prerequisites first and says why when one is
# missing; this is its own process so that `set -e` stops it at the first failing step.
#
#   scripts/install-code-server.sh DEST VERSION RG NODE_GYP NODE_DIR
#
# RG: the `rg` to link where @vscode/ripgrep looks for it; NODE_GYP: npm's node-gyp.js;
# NODE_DIR: the prefix whose include/node holds the Node headers.
set -euo pipefail
dest=$1 version=$2 rg=$3 node_gyp=$4 node_dir=$5
quiet=(--no-audit --no-fund --loglevel=error)

cd "$dest"
npm install --prefix . --ignore-scripts "${quiet[@]}" "code-server@$version"
export npm_config_nodedir="$node_dir" npm_config_node_gyp="$node_gyp"
# argon2 (password hashing; loaded at start even with --auth none) through node-pre-gyp,
# which puts the module where argon2 loads it from.
(cd node_modules/argon2 &&
  node ../@mapbox/node-pre-gyp/bin/node-pre-gyp rebuild --build-from-source --loglevel=warn >/dev/null 2>&1)

# What code-server's postinstall.sh does: VS Code's production dependencies...
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts "${quiet[@]}"
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sfn "$rg" node_modules/@vscode/ripgrep/bin/rg
# ... with the native modules the server loads on Linux (not the windows-* ones) built here.
for m in @vscode/spdlog @parcel/watcher native-watchdog node-pty @vscode/deviceid; do
  (cd "node_modules/$m" && node "$node_gyp" rebuild --nodedir="$node_dir" --loglevel=warn >/dev/null)
done
# kerberos is loaded only for a proxy that asks for Kerberos; it needs libkrb5-dev.
(cd node_modules/kerberos && node "$node_gyp" rebuild --nodedir="$node_dir" --loglevel=warn >/dev/null 2>&1) ||
  echo "install-code-server: kerberos not built (libkrb5-dev missing?); only proxy authentication needs it"
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
# ... and its built-in extensions' dependencies.
cd extensions
npm install --omit=dev --ignore-scripts "${quiet[@]}"
node ./postinstall.mjs >/dev/null

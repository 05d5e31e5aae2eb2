#!/usr/bin/env bash
# Installs every Debian package the project needs (idempotent, non-interactive),
# then configures and builds the release tree in build/release.
#
#   scripts/setup.sh              install + build release
#   scripts/setup.sh --no-build   install only
#
# Runs apt-get through sudo when not root. Packages are listed once, here.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # toolchain
  cmake ninja-build g++ pkg-config
  # front end: JSON (metadata section, --error-format=json), unit tests
  nlohmann-json3-dev catch2
  # fuzzing and sanitizers (libFuzzer lives in libclang-rt-19-dev; llvm-19 brings the
  # llvm-symbolizer that gives sanitizer reports readable stack traces)
  clang-19 libclang-rt-19-dev llvm-19
  # the compile path (compiler/llvm): LLVM 19's headers, CMake config and the shared libLLVM
  # for ORC LLJIT and the new pass manager; libzstd-dev for LLVM's static libraries, which
  # the GPU check's relay links (scripts/gpu-check.sh, -DRELAY_LLVM_STATIC=ON)
  llvm-19-dev libzstd-dev
  # test runners (tests/ui/run_ui_tests.py) and the numpy golden-data generators
  python3 python3-numpy
  # interpreter: BLAS for dense/batch_matmul/convolution, zlib for .npz archives
  libopenblas-dev zlib1g-dev
  # the compile path's convolution and matrix kernels (compiler/dnnl): oneDNN 2.6 (v2 API)
  libdnnl-dev
  # benchmark peers (bench/interpreter/peers.py): PyTorch eager on the CPU
  python3-torch
  # a real LSP client for the language server's end-to-end test
  neovim
  # relay repl: line editing (BSD-licensed libedit) and :viz pictures through Graphviz
  libedit-dev libgraphviz-dev
  # the Jupyter kernel: xeus 2.4 with its built-in ZeroMQ server
  xeus-dev cppzmq-dev libzmq3-dev uuid-dev libssl-dev
  # kernel and notebook tests (Debian's /usr/bin/python3)
  python3-jupyter-client jupyter-client jupyter-core jupyter-nbconvert python3-nbconvert
  python3-nbclient
  # the notebook's end-to-end test (tests/kernel/test_notebook_browser.py): the classic
  # Notebook server, driven in headless Chromium by puppeteer-core (npm). `:viz` PNGs need
  # nothing more: libgvc6 carries Graphviz's cairo and gd plugins.
  jupyter-notebook python3-notebook chromium
  # the VS Code extension's end-to-end test (scripts/test-vscode-e2e.sh): code-server from
  # npm finds its search tool (@vscode/ripgrep's `rg`) in Debian's ripgrep, as the npm
  # package's own install would download it
  ripgrep
  # the debug adapter's test client validates every message against the DAP JSON schema
  python3-jsonschema
  # the tree-sitter grammar (editors/tree-sitter-relay): the runtime its generated C links
  libtree-sitter-dev
  # `relay import`'s conformance test: ONNX's own backend test data (models with their
  # inputs and expected outputs, tests/import/onnx_conformance.py)
  libonnx-testdata
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all ${#PACKAGES[@]} packages present"
fi

# Node.js and npm for the VS Code extension's grammar tests and build
# (scripts/test-editors.sh). A machine that already has them (e.g. from NodeSource) keeps
# its own; otherwise Debian's are installed.
if ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing nodejs npm"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi

# The tree-sitter CLI (`tree-sitter generate/test`), built from Debian's sources by
# ../shared/tools/build-tree-sitter-cli.sh (about 2 minutes of Rust), only when the grammar
# changed since src/parser.c was generated, or with RELAY_TREE_SITTER_CLI=1. The project's
# own build needs only the committed C. The CLI lands in $TREE_SITTER_CLI_DIR/bin.
ts_grammar=editors/tree-sitter-relay
ts_cli_dir="${TREE_SITTER_CLI_DIR:-/tmp/tree-sitter-cli}"
if [ "${RELAY_TREE_SITTER_CLI:-0}" = 1 ] || [ "$ts_grammar/grammar.js" -nt "$ts_grammar/src/parser.c" ]; then
  if [ -x "$ts_cli_dir/bin/tree-sitter" ]; then
    echo "setup: tree-sitter CLI present in $ts_cli_dir/bin"
  elif [ -f ../shared/tools/build-tree-sitter-cli.sh ]; then
    echo "setup: building the tree-sitter CLI into $ts_cli_dir"
    $SUDO env WORK="$ts_cli_dir" VERIFY=0 bash ../shared/tools/build-tree-sitter-cli.sh
  else
    echo "setup: ../shared/tools/build-tree-sitter-cli.sh is missing; cannot build the tree-sitter CLI" >&2
  fi
fi

if [ "${1:-}" = "--no-build" ]; then exit 0; fi

cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build/release

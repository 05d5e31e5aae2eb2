#!/usr/bin/env bash
# The GPU check of the compile path (issue 15), in two halves, because the GPU machine
# has a compiler and the NVIDIA driver but none of this project's dependencies:
#
#   scripts/gpu-check.sh prepare       here: builds relay_gpu_bundle (release build) and
#                                      writes build/gpu-check/bundle: PTX for sm_90, every
#                                      kernel's inputs and the interpreter's outputs
#   scripts/gpu-check.sh run [ARGS]    on the GPU machine, from the repository root (the
#                                      bundle carried along): builds relay_gpu_check from
#                                      compiler/cuda and tests/gpu/gpu_check.cpp with the
#                                      machine's C++17 compiler and runs every case and the
#                                      bandwidth benchmark; the report is also written to
#                                      $OUT/gpu-check.txt when $OUT is set
#
# With the device tool: run `prepare` here, then run `scripts/gpu-check.sh run` there with
# carry ["build/gpu-check"] (tests/gpu/README.md). Exit status: 0 all passed, 1 a case
# failed, 2 a broken bundle or build, 77 no GPU.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bundle="build/gpu-check/bundle"

case "${1:-}" in
  prepare)
    shift
    build="${RELAY_BUILD_DIR:-build/release}"
    [ -f "$build/build.ninja" ] || { echo "gpu-check: no build in $build (run scripts/setup.sh first)" >&2; exit 2; }
    cmake --build "$build" --target relay_gpu_bundle relay_gpu_check
    rm -rf build/gpu-check
    "$build/tests/relay_gpu_bundle" --out "$bundle" "$@"
    "$build/tests/relay_gpu_check" "$bundle" --verify
    echo "gpu-check: the bundle is in $bundle ($(du -sh "$bundle" | cut -f1)); carry build/gpu-check to the GPU machine"
    ;;
  run)
    shift
    [ -f "$bundle/manifest.txt" ] || { echo "gpu-check: no bundle in $bundle (scripts/gpu-check.sh prepare, then carry build/gpu-check)" >&2; exit 2; }
    cxx="${CXX:-}"
    if [ -z "$cxx" ]; then
      for c in g++ c++ clang++; do
        if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
      done
    fi
    [ -n "$cxx" ] || { echo "gpu-check: no C++ compiler on this machine" >&2; exit 2; }
    exe="$(mktemp -d)/relay_gpu_check"
    "$cxx" -O2 -std=c++17 -I"$root" compiler/cuda/driver.cpp compiler/cuda/device.cpp tests/gpu/gpu_check.cpp \
      -ldl -o "$exe"
    status=0
    if [ -n "${OUT:-}" ]; then
      "$exe" "$bundle" "$@" | tee "$OUT/gpu-check.txt" || status=${PIPESTATUS[0]}
    else
      "$exe" "$bundle" "$@" || status=$?
    fi
    exit "$status"
    ;;
  *)
    echo "usage: scripts/gpu-check.sh prepare [relay_gpu_bundle options] | run [relay_gpu_check options]" >&2
    exit 2
    ;;
esac

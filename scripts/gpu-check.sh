#!/usr/bin/env bash
# The GPU check of the compile path (issue 15), in two halves, because the GPU machine
# has a compiler and the NVIDIA driver but none of this project's dependencies:
#
#   scripts/gpu-check.sh prepare       here: builds relay_gpu_bundle (release build) and
#                                      writes build/gpu-check/bundle: PTX for sm_90, every
#                                      kernel's inputs and the interpreter's outputs
#                                      (data.bin, xz-compressed); and
#                                      build/gpu-check/relay.tar.xz: the relay binary with
#                                      every shared library it loads (glibc's loader too)
#                                      and libdevice, so it runs on a machine that has none
#                                      of this project's dependencies
#   scripts/gpu-check.sh run [ARGS]    on the GPU machine, from the repository root (the
#                                      bundle carried along): builds relay_gpu_check from
#                                      compiler/cuda and tests/gpu/gpu_check.cpp with the
#                                      machine's C++17 compiler and runs every case and the
#                                      bandwidth benchmark; then unpacks relay and runs
#                                      bench/gpu/bench_gpu.py: `relay run --device=cuda` on
#                                      the models and matrix products against PyTorch on the
#                                      same GPU (results compared, times side by side). The
#                                      reports are also written to $OUT (gpu-check.txt,
#                                      bench-gpu.txt) when $OUT is set. RELAY_GPU_CASES
#                                      picks bench_gpu.py's cases, RELAY_GPU_COMPILE=0 leaves
#                                      torch.compile out, RELAY_GPU_TUNE=0 relay's second
#                                      run of each case with --tune-tiles; the cases not
#                                      begun RELAY_GPU_DEADLINE_S (420) seconds after the
#                                      start are listed as skipped
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
    # the cases' data compressed (random floats: about 40% smaller), unpacked by `run`
    xz -T2 -6 "$bundle/data.bin"
    # relay itself for that machine: LLVM linked statically and no oneDNN (the GPU runs the
    # convolutions), so that it and every library it loads (the loader included: the GPU
    # machine's glibc may be older or newer), stripped and compressed, fit the carry limit
    pack_build="${RELAY_GPU_PACK_BUILD_DIR:-build/gpu-pack}"
    cmake -S . -B "$pack_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRELAY_TESTS=OFF -DRELAY_DNNL=OFF \
      -DRELAY_LLVM_STATIC=ON > /dev/null
    cmake --build "$pack_build" --target relay
    pack=build/gpu-check/relay
    mkdir -p "$pack/bin" "$pack/lib"
    cp "$pack_build/relay" "$pack/bin/relay"
    strip "$pack/bin/relay"
    ldd "$pack_build/relay" | awk '/=> \//{print $3} /^[[:space:]]*\/.*ld-linux/{print $1}' | while read -r lib; do
      cp -L "$lib" "$pack/lib/"
    done
    for bc in /usr/local/cuda/nvvm/libdevice/libdevice.10.bc /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc; do
      if [ -f "$bc" ]; then cp "$bc" "$pack/lib/"; break; fi
    done
    tar -C build/gpu-check -cf - relay | xz -T2 -6 > build/gpu-check/relay.tar.xz
    rm -rf "$pack"
    echo "gpu-check: relay and its libraries in build/gpu-check/relay.tar.xz ($(du -sh build/gpu-check/relay.tar.xz | cut -f1))"
    echo "gpu-check: the bundle is in $bundle ($(du -sh "$bundle" | cut -f1)); carry build/gpu-check to the GPU machine"
    # the device tool carries at most 64 MiB with the working tree
    total=$(du -sb build/gpu-check | cut -f1)
    if [ "$total" -gt $((60 << 20)) ]; then
      echo "gpu-check: build/gpu-check holds $((total >> 20)) MiB, too close to the 64 MiB a device run carries" \
        "(lower relay_gpu_bundle's --budget-mib)" >&2
      exit 2
    fi
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
    if [ ! -f "$bundle/data.bin" ] && [ -f "$bundle/data.bin.xz" ]; then
      # unpacked beside links to the rest, not into the bundle (which is carried: both
      # copies would not fit); Python's lzma, as the GPU machine may lack the xz tool
      unpacked="$(mktemp -d)"
      trap 'rm -rf "$unpacked"' EXIT
      for f in "$root/$bundle"/*; do ln -s "$f" "$unpacked/"; done
      python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
        "$bundle/data.bin.xz" "$unpacked/data.bin"
      bundle="$unpacked"
    fi
    exe="$(mktemp -d)/relay_gpu_check"
    "$cxx" -O2 -std=c++17 -I"$root" compiler/cuda/driver.cpp compiler/cuda/device.cpp tests/gpu/gpu_check.cpp \
      -ldl -o "$exe"
    status=0
    if [ -n "${OUT:-}" ]; then
      "$exe" "$bundle" "$@" | tee "$OUT/gpu-check.txt" || status=${PIPESTATUS[0]}
    else
      "$exe" "$bundle" "$@" || status=$?
    fi
    [ "$status" = 77 ] && exit 77
    if [ -f build/gpu-check/relay.tar.xz ]; then
      dir="$(mktemp -d)"
      # (Python's tarfile: the GPU machine's image may lack the xz tool)
      python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' build/gpu-check/relay.tar.xz "$dir"
      lib="$dir/relay/lib"
      # the driver by its full path: the carried loader does not read $LD_LIBRARY_PATH
      driver="$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')"
      for d in ${LD_LIBRARY_PATH//:/ } /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
        [ -n "$driver" ] && break
        [ -e "$d/libcuda.so.1" ] && driver="$d/libcuda.so.1"
      done
      export RELAY_CUDA_DRIVER="${RELAY_CUDA_DRIVER:-$driver}"
      if [ -f "$lib/libdevice.10.bc" ] && [ ! -f /usr/local/cuda/nvvm/libdevice/libdevice.10.bc ]; then
        export RELAY_LIBDEVICE="$lib/libdevice.10.bc"
      fi
      relay="$lib/$(basename "$(ls "$lib"/ld-linux*)") --library-path $lib $dir/relay/bin/relay"
      echo "gpu-check: relay unpacked; driver ${RELAY_CUDA_DRIVER:-not found}"
      $relay run tests/models/mlp.relay --random-inputs 1 --device=cuda --jit-report || status=1
      # the measured tiles once on their own (its report names every shape's choice)
      RELAY_TILE_CACHE= $relay run tests/models/resnet18.relay --random-inputs 1 --device=cuda --tune-tiles \
        --jit-report 2>&1 | grep -E "^ *(tile|tiles measured)" || status=1
      compile=()
      [ "${RELAY_GPU_COMPILE:-1}" = 0 ] && compile=(--no-compile)
      [ "${RELAY_GPU_TUNE:-1}" = 0 ] && compile+=(--no-tune)
      # the benchmarks begin cases until RELAY_GPU_DEADLINE_S (default 420 s) after the
      # check's start, and list the rest as skipped, so that the case under way still ends
      # within a device call's 600 s
      deadline=$(( ${RELAY_GPU_DEADLINE_S:-420} - SECONDS ))
      python3 bench/gpu/bench_gpu.py "$relay" ${RELAY_GPU_CASES:+--cases "$RELAY_GPU_CASES"} "${compile[@]}" \
        --deadline "$(( deadline > 0 ? deadline : 0 ))" ${OUT:+--out "$OUT"} || status=1
    fi
    exit "$status"
    ;;
  *)
    echo "usage: scripts/gpu-check.sh prepare [relay_gpu_bundle options] | run [relay_gpu_check options]" >&2
    exit 2
    ;;
esac

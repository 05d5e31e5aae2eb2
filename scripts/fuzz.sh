#!/usr/bin/env bash
# Fuzzes what reads untrusted input with libFuzzer for a bounded time: the front end
# (lexer, parser, resolver, type checker, diagnostic rendering, printer round trip), the
# tensor file readers (.npy, .npz), the dyn.* kernels' shapes made of data and `relay
# import`'s ONNX reader. The time is split between the targets (half to the front end).
#
#   scripts/fuzz.sh            fuzz for 60 seconds
#   scripts/fuzz.sh SECONDS    fuzz for SECONDS
#
# Builds build/fuzz with clang-19 (-DRELAY_FUZZ=ON: only relay_lang and the fuzz target),
# copies the committed seed corpus (tests/fuzz/corpus) to a scratch directory and fuzzes
# that copy, so the committed corpus never grows by itself. Exits 1 when the fuzzer finds
# a crash, a hang, a leak or a round-trip failure; the reproducer is kept under the
# scratch directory and printed with the command that replays it.
#
# Environment: FUZZ_JOBS (build parallelism, default 2), RELAY_FUZZ_KEEP=1 keeps the
# scratch directory (the grown corpus) even on success, FUZZ_ARGS adds libFuzzer flags.
set -euo pipefail
cd "$(dirname "$0")/.."

secs="${1:-60}"
case "$secs" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac

build=build/fuzz
echo "fuzz: building $build (clang-19, libFuzzer + ASan + UBSan)"
# -O1 and line tables only, as OSS-Fuzz builds its targets: the sanitizers' reports keep
# their file:line frames, and the build takes a third of -O2 -g's time (the interpreter's
# kernels, instantiated for every dtype, are most of it)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DRELAY_FUZZ=ON -DRELAY_TESTS=OFF >/dev/null
if ! cmake --build "$build" -j "${FUZZ_JOBS:-2}" --target relay_fuzz_frontend relay_fuzz_npy relay_fuzz_dyn relay_fuzz_onnx >"$build/build.log" 2>&1; then
  cat "$build/build.log"
  echo "fuzz: FAILED to build the fuzz target"
  exit 1
fi
# Symbolized stack traces in reports: clang-19's runtime does not look for an unversioned
# llvm-symbolizer by itself (package llvm-19 has its own; llvm-14 puts one on PATH).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
  for s in /usr/lib/llvm-19/bin/llvm-symbolizer "$(command -v llvm-symbolizer || true)"; do
    if [ -n "$s" ] && [ -x "$s" ]; then export ASAN_SYMBOLIZER_PATH="$s"; break; fi
  done
fi

# fuzz_one NAME SEEDS SECONDS [libFuzzer flags...]: fuzzes a copy of the seed corpus.
failed=0
fuzz_one() {
  local name=$1 seeds_dir=$2 t=$3
  shift 3
  local bin="$build/tests/fuzz/relay_fuzz_$name"
  local work
  work=$(mktemp -d "${TMPDIR:-/tmp}/relay-fuzz-$name.XXXXXX")
  mkdir -p "$work/corpus" "$work/artifacts"
  cp "$seeds_dir"/* "$work/corpus/"
  local seeds
  seeds=$(ls "$work/corpus" | wc -l)
  echo "fuzz: $name: $seeds seeds, ${t}s, scratch $work"
  local status=0
  # -timeout: one input taking longer than 10 s is reported as a hang.
  # shellcheck disable=SC2086
  "$bin" "$work/corpus" -max_total_time="$t" -timeout=10 -artifact_prefix="$work/artifacts/" \
    -print_final_stats=1 "$@" ${FUZZ_ARGS:-} 2>"$work/fuzz.log" || status=$?
  tail -n 30 "$work/fuzz.log"
  local found
  found=$(find "$work/artifacts" -type f | sort)
  if [ "$status" -ne 0 ] || [ -n "$found" ]; then
    echo
    echo "fuzz: $name FAILED (libFuzzer exit status $status); full log: $work/fuzz.log"
    for f in $found; do
      echo "fuzz: reproducer $f  (replay: $bin $f)"
    done
    failed=1
    return
  fi
  echo "fuzz: $name: no crash in ${t}s (corpus $seeds -> $(ls "$work/corpus" | wc -l) inputs)"
  if [ "${RELAY_FUZZ_KEEP:-0}" = 1 ]; then
    echo "fuzz: grown corpus kept in $work/corpus"
  else
    rm -rf "$work"
  fi
}

# Half the time to the front end, a sixth each to the tensor readers, the dyn.* shapes and
# the ONNX reader.
sixth=$(( secs / 6 > 0 ? secs / 6 : 1 ))
fuzz_one frontend tests/fuzz/corpus "$(( secs - 3 * sixth > 0 ? secs - 3 * sixth : 1 ))" -max_len=4096 -dict=tests/fuzz/relay.dict
fuzz_one npy tests/fuzz/npy_corpus "$sixth" -max_len=8192
fuzz_one dyn tests/fuzz/dyn_corpus "$sixth" -max_len=128
fuzz_one onnx tests/fuzz/onnx_corpus "$sixth" -max_len=4096
if [ "$failed" -ne 0 ]; then
  echo "fuzz: FAILED"
  exit 1
fi
echo "fuzz: OK, no crash in ${secs}s"

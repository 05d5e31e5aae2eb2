#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine:
#   1. scripts/setup.sh --no-build      install the Debian packages (sudo when not root)
#   2. configure + build build/asan     Debug at -O1 (ASan's advice: the deep-input
#                                       robustness tests run ~10x faster than at -O0),
#                                       ASan + UBSan (RELAY_SANITIZE), -Werror; -g1: line
#                                       tables for the sanitizers' stack traces, no
#                                       variables (a quarter less compile time, half
#                                       the objects' size)
#   3. ctest                            unit, UI, round-trip, kernel, LSP and fuzz-corpus tests
#   4. scripts/test-editors.sh          the VS Code extension: grammar tests, TypeScript build
#      scripts/test-vscode-e2e.sh       the packaged .vsix in code-server, driven in Chromium
#                                       (exit 77, shown as SKIP, when code-server cannot be installed)
#   5. scripts/fuzz.sh 60               a bounded libFuzzer run (clang-19, build/fuzz)
# Exits non-zero if any step fails, after a summary of every step. Logs of each step
# are kept in build/test-logs/.
#
# Environment: TEST_JOBS (build and ctest parallelism, default 2), TEST_TIMEOUT (seconds
# per CTest test, default 1200), FUZZ_SECONDS (default 60; 0 skips the fuzz step).
set -uo pipefail
cd "$(dirname "$0")/.."

jobs="${TEST_JOBS:-2}"
fuzz_seconds="${FUZZ_SECONDS:-60}"
logs=build/test-logs
mkdir -p "$logs"
t_start=$(date +%s)
summary=()
failed=0

# step NAME LOG COMMAND...: runs COMMAND, shows and logs its output, records the outcome.
step() {
  local name=$1 log=$2
  shift 2
  local t0=$SECONDS
  echo
  echo "==> $name"
  "$@" 2>&1 | tee "$logs/$log.log"
  local status=${PIPESTATUS[0]}
  local dt=$((SECONDS - t0))
  if [ "$status" -eq 0 ]; then
    summary+=("$(printf 'PASS  %-34s %5ss' "$name" "$dt")")
  elif [ "$status" -eq 77 ]; then
    # A step that says it cannot run here (CTest's skip code; the step printed why).
    summary+=("$(printf 'SKIP  %-34s %5ss  (exit 77, log %s)' "$name" "$dt" "$logs/$log.log")")
    return 0
  else
    summary+=("$(printf 'FAIL  %-34s %5ss  (exit %s, log %s)' "$name" "$dt" "$status" "$logs/$log.log")")
    failed=1
  fi
  return "$status"
}
skip() { summary+=("$(printf 'SKIP  %-34s         (%s)' "$1" "$2")"); failed=1; }

export ASAN_OPTIONS="detect_leaks=1"
# Graphviz and its font libraries keep one-time state until exit (tests/lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

if step "setup (Debian packages)" setup scripts/setup.sh --no-build; then
  build_ok=0
  step "configure build/asan" configure \
      cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
            -DRELAY_SANITIZE=ON -DRELAY_WERROR=ON -DRELAY_TESTS=ON &&
    step "build build/asan (-j$jobs)" build cmake --build build/asan -j "$jobs" &&
    build_ok=1
  if [ "$build_ok" = 1 ]; then
    step "ctest (ASan + UBSan)" ctest ctest --test-dir build/asan --output-on-failure -j "$jobs" \
         --timeout "${TEST_TIMEOUT:-1200}"
  else
    skip "ctest (ASan + UBSan)" "the build failed"
  fi
  RELAY_BINARY="$PWD/build/asan/relay" step "editors (grammar, extension, debugger)" editors scripts/test-editors.sh
  RELAY_BINARY="$PWD/build/asan/relay" step "VS Code end to end (code-server)" vscode-e2e scripts/test-vscode-e2e.sh
  if [ "$fuzz_seconds" != 0 ]; then
    step "fuzz (${fuzz_seconds}s, libFuzzer)" fuzz scripts/fuzz.sh "$fuzz_seconds"
  else
    summary+=("SKIP  fuzz                               (FUZZ_SECONDS=0)")
  fi
else
  skip "build + ctest + fuzz" "package setup failed"
fi

echo
echo "==================== test summary ===================="
for line in "${summary[@]}"; do echo "$line"; done
tests_line=$(grep -E 'tests passed' "$logs/ctest.log" 2>/dev/null | tail -n 1)
[ -n "$tests_line" ] && echo "ctest: $tests_line"
fuzz_line=$(grep -E '^fuzz: (OK|FAILED)' "$logs/fuzz.log" 2>/dev/null | tail -n 1)
[ -n "$fuzz_line" ] && echo "$fuzz_line"
echo "total time: $(( $(date +%s) - t_start ))s"
if [ "$failed" = 0 ]; then
  echo "RESULT: ALL PASSED"
else
  echo "RESULT: FAILED"
fi
exit "$failed"

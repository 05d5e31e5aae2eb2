# Fuzz smoke test (included by tests/CMakeLists.txt): the libFuzzer target's body,
# linked with a plain main(), replays the committed seed corpus in the ordinary build
# (sanitizers included when RELAY_SANITIZE is on). Fuzzing proper is scripts/fuzz.sh.
add_executable(relay_fuzz_replay
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_frontend.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cpp)
target_link_libraries(relay_fuzz_replay PRIVATE relay_lang)
file(GLOB RELAY_FUZZ_REPLAY_PRINTER CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lang/syntax/printer*.cpp)
if(RELAY_FUZZ_REPLAY_PRINTER)
  target_compile_definitions(relay_fuzz_replay PRIVATE RELAY_FUZZ_HAVE_PRINTER=1)
endif()
add_test(NAME fuzz.corpus_replay
         COMMAND relay_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)

# The same for the tensor file readers (.npy / .npz), over their own seed corpus.
add_executable(relay_fuzz_npy_replay
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_npy.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cpp)
target_link_libraries(relay_fuzz_npy_replay PRIVATE relay_runtime)
add_test(NAME fuzz.npy_corpus_replay
         COMMAND relay_fuzz_npy_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/npy_corpus)

# The same for the dyn.* kernels' shape computations (shapes read from tensors).
add_executable(relay_fuzz_dyn_replay
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_dyn.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cpp)
target_link_libraries(relay_fuzz_dyn_replay PRIVATE relay_interpreter)
add_test(NAME fuzz.dyn_corpus_replay
         COMMAND relay_fuzz_dyn_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/dyn_corpus)

# The same for `relay import`'s ONNX reader and converters (seeds: make_onnx_seeds.py).
add_executable(relay_fuzz_onnx_replay
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_onnx.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cpp)
target_link_libraries(relay_fuzz_onnx_replay PRIVATE relay_importer)
add_test(NAME fuzz.onnx_corpus_replay
         COMMAND relay_fuzz_onnx_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/onnx_corpus)

# Differential fuzzing of the compile path: random programs run interpreted and compiled
# must agree (tests/fuzz/jit_differential.py). A fixed range of seeds here; more with
# `python3 tests/fuzz/jit_differential.py build/release/relay --seeds 0:2000`.
find_program(RELAY_FUZZ_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_FUZZ_PYTHON3 AND TARGET relay_compiler)
  add_test(NAME fuzz.jit_differential
           COMMAND ${RELAY_FUZZ_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/jit_differential.py
                   $<TARGET_FILE:relay> --seeds 0:40 --quiet)
  set_tests_properties(fuzz.jit_differential PROPERTIES TIMEOUT 900)
endif()

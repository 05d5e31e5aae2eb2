# `relay import` end to end (included by tests/CMakeLists.txt): ONNX's backend test models
# of the PyTorch-exported and simple suites through the `relay` binary (import, convert
# inputs with --tensor, run interpreted and, for the exported convolutions, compiled,
# compare with ONNX's outputs in numpy). The in-process test over all 1072 models is
# tests/unit/onnx_import_test.cpp.
find_program(RELAY_IMPORT_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_IMPORT_PYTHON3)
  add_test(NAME import.onnx_cli_pytorch
           COMMAND ${RELAY_IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/onnx_conformance.py
                   $<TARGET_FILE:relay> pytorch)
  # Compiled as well, on the convolutions only: every model compiled under the sanitizers
  # takes minutes (all 118 run compiled with `--jit off,eager pytorch` by hand).
  add_test(NAME import.onnx_cli_compiled
           COMMAND ${RELAY_IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/onnx_conformance.py
                   $<TARGET_FILE:relay> --jit off,eager pytorch-converted/test_Conv)
  add_test(NAME import.onnx_cli_simple
           COMMAND ${RELAY_IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/onnx_conformance.py
                   $<TARGET_FILE:relay> simple/)
  add_test(NAME import.cli
           COMMAND ${RELAY_IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/cli_test.py $<TARGET_FILE:relay>)
  set_tests_properties(import.onnx_cli_pytorch import.onnx_cli_compiled import.onnx_cli_simple import.cli
                       PROPERTIES TIMEOUT 900)
endif()

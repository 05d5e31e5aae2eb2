# The compiler's tests (tests/compiler/): graphs of every model, each pass, fusion by
# TVM's rules, and the graph executor against the interpreter. Included by
# tests/CMakeLists.txt when the compiler's graph library is built.
if(TARGET relay_compiler_graph)
  file(GLOB RELAY_COMPILER_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/compiler/*.cpp)
  # golden_cases.cpp: the kernels' golden cases, compiled (golden_compiled_test.cpp)
  add_executable(relay_compiler_tests ${RELAY_COMPILER_TESTS} ${CMAKE_CURRENT_SOURCE_DIR}/support/golden_cases.cpp)
  target_link_libraries(relay_compiler_tests PRIVATE relay_compiler_graph relay_interpreter relay_lang
    Catch2::Catch2WithMain)
  target_compile_definitions(relay_compiler_tests PRIVATE RELAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(TARGET relay_compiler)
    # The whole pipeline (tests/compiler/pipeline_test.cpp): compiled against interpreted.
    target_link_libraries(relay_compiler_tests PRIVATE relay_compiler)
    target_compile_definitions(relay_compiler_tests PRIVATE RELAY_HAVE_PIPELINE=1)
  endif()
  catch_discover_tests(relay_compiler_tests TEST_PREFIX "compiler." EXTRA_ARGS ${RELAY_CATCH_ARGS})
  # The layout pass where oneDNN's convolutions choose a blocked layout (as on processors
  # without AVX-512): oneDNN reads the ISA cap once, so it runs in a process of its own.
  add_test(NAME compiler.layouts_avx2 COMMAND relay_compiler_tests "[.avx2]")
  set_tests_properties(compiler.layouts_avx2 PROPERTIES ENVIRONMENT "ONEDNN_MAX_CPU_ISA=AVX2")
endif()

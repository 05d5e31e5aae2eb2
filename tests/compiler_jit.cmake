# The compile path's JIT: every lowered element-wise operator compiled with LLVM and
# compared with the interpreter's reference kernel; broadcasting, chains, the runtime.
if(TARGET relay_compiler_llvm)
  file(GLOB RELAY_COMPILER_JIT_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/compiler_jit/*.cpp)
  add_executable(relay_compiler_jit_tests ${RELAY_COMPILER_JIT_TESTS})
  target_link_libraries(relay_compiler_jit_tests PRIVATE relay_compiler_llvm relay_compiler_loops
    relay_compiler_runtime relay_interpreter Catch2::Catch2WithMain)
  catch_discover_tests(relay_compiler_jit_tests EXTRA_ARGS ${RELAY_CATCH_ARGS})
endif()

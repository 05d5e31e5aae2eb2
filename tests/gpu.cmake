# The GPU check's two halves (tests/gpu/README.md): relay_gpu_bundle writes PTX, inputs and
# the interpreter's outputs here; relay_gpu_check runs them on a GPU (scripts/gpu-check.sh
# builds it there from its few sources). CI has no GPU: it checks that a bundle is written
# and reads back complete.
if(TARGET relay_compiler)
  add_executable(relay_gpu_bundle ${CMAKE_CURRENT_SOURCE_DIR}/gpu/bundle.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/compiler_jit/support.cpp)
  target_link_libraries(relay_gpu_bundle PRIVATE relay_compiler relay_interpreter relay_lang)
  target_compile_definitions(relay_gpu_bundle PRIVATE RELAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}" RELAY_HAVE_PIPELINE=1)
  add_executable(relay_gpu_check ${CMAKE_CURRENT_SOURCE_DIR}/gpu/gpu_check.cpp)
  target_link_libraries(relay_gpu_check PRIVATE relay_compiler_cuda)
  add_test(NAME gpu_bundle_reads_back
    COMMAND sh -c "rm -rf \"$1\" && \"$2\" --out \"$1\" --models mlp,dqn,kernels/float16 && \"$3\" \"$1\" --verify"
            sh ${CMAKE_CURRENT_BINARY_DIR}/gpu-bundle-test $<TARGET_FILE:relay_gpu_bundle> $<TARGET_FILE:relay_gpu_check>)
  set_tests_properties(gpu_bundle_reads_back PROPERTIES TIMEOUT 600)
endif()

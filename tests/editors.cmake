# The tree-sitter grammar (editors/tree-sitter-relay): the C++ acceptance test that runs
# the generated parser and the hand-written one over every .relay file of the repository.
# Included by tests/CMakeLists.txt.
add_executable(relay_tree_sitter_tests
  ${CMAKE_CURRENT_SOURCE_DIR}/editors/tree_sitter_accept_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/editors/highlight_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/editors/diagnostic_color_test.cpp)
target_link_libraries(relay_tree_sitter_tests PRIVATE relay_ide relay_tree_sitter relay_lang Catch2::Catch2WithMain)
target_compile_definitions(relay_tree_sitter_tests PRIVATE RELAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  RELAY_BINARY="$<TARGET_FILE:relay>")
catch_discover_tests(relay_tree_sitter_tests TEST_PREFIX "tree_sitter." EXTRA_ARGS ${RELAY_CATCH_ARGS})

# The Neovim plugin (editors/nvim) in headless Neovim 0.7 (Debian's `neovim`): parser
# registration, highlight captures at known positions, `relay lsp` attached.
find_program(RELAY_EDITORS_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(RELAY_EDITORS_NVIM nvim)
if(RELAY_EDITORS_PYTHON3 AND RELAY_EDITORS_NVIM)
  add_test(NAME nvim_plugin_e2e
           COMMAND ${RELAY_EDITORS_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/editors/nvim_plugin_e2e.py
                   $<TARGET_FILE:relay> ${RELAY_EDITORS_NVIM})
  set_tests_properties(nvim_plugin_e2e PROPERTIES TIMEOUT 180)
endif()

# The tree-sitter grammar (editors/tree-sitter-relay): the C++ acceptance test that runs
# the generated parser and the hand-written one over every .relay file of the repository.
# Included by tests/CMakeLists.txt.
add_executable(relay_tree_sitter_tests
  ${CMAKE_CURRENT_SOURCE_DIR}/editors/tree_sitter_accept_test.cpp)
target_link_libraries(relay_tree_sitter_tests PRIVATE relay_tree_sitter relay_lang Catch2::Catch2WithMain)
target_compile_definitions(relay_tree_sitter_tests PRIVATE RELAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
catch_discover_tests(relay_tree_sitter_tests TEST_PREFIX "tree_sitter.")

# Language-server tests (tests/lsp/): protocol fixtures and a soak test, each driving
# `relay lsp` as a subprocess. Included by tests/CMakeLists.txt.
find_program(RELAY_LSP_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_LSP_PYTHON3)
  add_test(NAME lsp_protocol
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/test_lsp.py $<TARGET_FILE:relay>)
  add_test(NAME lsp_soak
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/soak_lsp.py $<TARGET_FILE:relay> 10000)
  add_test(NAME lsp_navigation
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/test_navigation.py $<TARGET_FILE:relay>)
  add_test(NAME lsp_editing
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/test_editing.py $<TARGET_FILE:relay>)
  # Random editing sessions with every request at random positions (tests/lsp/fuzz_lsp.py).
  add_test(NAME lsp_fuzz
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/fuzz_lsp.py $<TARGET_FILE:relay>
                   --seeds 1:9 --steps 120)
  set_tests_properties(lsp_protocol lsp_soak lsp_navigation lsp_editing lsp_fuzz PROPERTIES TIMEOUT 600)
endif()

# A real client: headless Neovim 0.7 (Debian's `neovim`).
find_program(RELAY_NVIM nvim)
if(RELAY_LSP_PYTHON3 AND RELAY_NVIM)
  add_test(NAME lsp_neovim_e2e
           COMMAND ${RELAY_LSP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/lsp/nvim_e2e.py $<TARGET_FILE:relay> ${RELAY_NVIM})
  set_tests_properties(lsp_neovim_e2e PROPERTIES TIMEOUT 180)
endif()

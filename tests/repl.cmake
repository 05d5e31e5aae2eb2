# `relay repl` on a pseudo-terminal (tests/repl/): prompts, multi-line input, Tab
# completion, Ctrl-C, history and Ctrl-D. Scripted sessions are UI goldens (tests/ui/repl).
find_program(RELAY_REPL_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_REPL_PYTHON3)
  add_test(NAME repl_terminal
           COMMAND ${RELAY_REPL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/repl/test_repl_terminal.py $<TARGET_FILE:relay>)
  set_tests_properties(repl_terminal PROPERTIES TIMEOUT 300)
endif()

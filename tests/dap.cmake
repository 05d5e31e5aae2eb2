# Debug-adapter tests (tests/dap/): the DAP test client's self-test, which needs no
# adapter, and every other tests/dap/test_*.py, each driving `relay dap` as a subprocess
# through tests/dap/dap_client.py (which validates every message against the DAP schema in
# ../shared/specs). Included by tests/CMakeLists.txt.
find_program(RELAY_DAP_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_DAP_PYTHON3)
  add_test(NAME dap_client_selftest
           COMMAND ${RELAY_DAP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/dap/test_client_selftest.py)
  set_tests_properties(dap_client_selftest PROPERTIES TIMEOUT 120)

  file(GLOB RELAY_DAP_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/dap/test_*.py)
  list(FILTER RELAY_DAP_TESTS EXCLUDE REGEX "test_client_selftest\\.py$")
  foreach(test_file ${RELAY_DAP_TESTS})
    get_filename_component(test_name ${test_file} NAME_WE)
    string(REGEX REPLACE "^test_" "dap_" test_name ${test_name})
    add_test(NAME ${test_name} COMMAND ${RELAY_DAP_PYTHON3} ${test_file} $<TARGET_FILE:relay>)
    set_tests_properties(${test_name} PROPERTIES TIMEOUT 600)
  endforeach()

  # Random sessions generated from the schema's request arguments (tests/dap/fuzz_dap.py):
  # every request answered, every message valid, a clean exit; a few seeds here.
  add_test(NAME dap_fuzz
           COMMAND ${RELAY_DAP_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/dap/fuzz_dap.py $<TARGET_FILE:relay>
                   --seeds 1:13 --steps 60)
  set_tests_properties(dap_fuzz PROPERTIES TIMEOUT 600)
endif()

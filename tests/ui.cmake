# Golden UI tests for `relay check` (tests/ui/README.md) and the checked corpus of
# realistic programs (tests/corpus/README.md). Included by tests/CMakeLists.txt.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "python3 not found: the UI and corpus tests are not registered")
  return()
endif()

add_test(NAME ui_tests
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ui/run_ui_tests.py
          $<TARGET_FILE:relay> ${PROJECT_SOURCE_DIR})
set_tests_properties(ui_tests PROPERTIES TIMEOUT 600)

# Every corpus program must pass `relay check` with exit status 0 and no diagnostics.
file(GLOB RELAY_CORPUS_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/corpus/*.relay)
foreach(program ${RELAY_CORPUS_FILES})
  get_filename_component(name ${program} NAME_WE)
  add_test(NAME corpus_check_${name}
    COMMAND $<TARGET_FILE:relay> check --color=never ${program})
  set_tests_properties(corpus_check_${name} PROPERTIES TIMEOUT 120
    FAIL_REGULAR_EXPRESSION "(error|warning)(\\[[EW][0-9]+\\])?:")
endforeach()

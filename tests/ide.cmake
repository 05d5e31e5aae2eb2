# In-process IDE tests (tests/ide/): fixtures with cursor markers and golden answers
# (tests/ide/README.md). One CTest, `ide_fixtures`. Included by tests/CMakeLists.txt.
add_executable(relay_ide_tests ${CMAKE_CURRENT_SOURCE_DIR}/ide/ide_fixtures_test.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/ide/fixture.cpp ${CMAKE_CURRENT_SOURCE_DIR}/ide/queries.cpp)
target_include_directories(relay_ide_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(relay_ide_tests PRIVATE relay_ide relay_lang Catch2::Catch2WithMain)
target_compile_definitions(relay_ide_tests PRIVATE RELAY_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_test(NAME ide_fixtures COMMAND relay_ide_tests)

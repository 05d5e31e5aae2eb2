# The random Relay program generator used by the round-trip and formatter tests.
target_sources(relay_unit_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support/random_program.cpp)

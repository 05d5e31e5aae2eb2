# The layering as a build fact (tests/layering/check_layers.py): no upward #include
# between the project's layers. Included by tests/CMakeLists.txt.
find_program(RELAY_LAYERING_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RELAY_LAYERING_PYTHON3)
  add_test(NAME layering COMMAND ${RELAY_LAYERING_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/layering/check_layers.py
           ${PROJECT_SOURCE_DIR})
endif()

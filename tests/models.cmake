# Standard models in TVM 0.14's printed style (tests/models/README.md). Included by
# tests/CMakeLists.txt. For every tests/models/NAME.relay, `relay check --emit=types` must
# print exactly NAME.types.txt; one more test checks that generate.py still reproduces the
# committed files byte for byte.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "python3 not found: the model tests are not registered")
  return()
endif()

set(RELAY_MODELS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/models)

file(GLOB RELAY_MODEL_FILES CONFIGURE_DEPENDS ${RELAY_MODELS_DIR}/*.relay)
foreach(program ${RELAY_MODEL_FILES})
  get_filename_component(name ${program} NAME_WE)
  add_test(NAME model_types_${name}
    COMMAND ${Python3_EXECUTABLE} ${RELAY_MODELS_DIR}/check_types.py
            $<TARGET_FILE:relay> ${program} ${RELAY_MODELS_DIR}/${name}.types.txt)
  set_tests_properties(model_types_${name} PROPERTIES TIMEOUT 180)
endforeach()

add_test(NAME models_generated_up_to_date
  COMMAND ${Python3_EXECUTABLE} ${RELAY_MODELS_DIR}/generate.py --check ${RELAY_MODELS_DIR})
set_tests_properties(models_generated_up_to_date PROPERTIES TIMEOUT 120)

# A Python with numpy for the numeric model checks: the configured one, else Debian's
# (scripts/setup.sh installs python3-numpy there); without one they are not registered.
set(RELAY_NUMPY_PYTHON "")
foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
  execute_process(COMMAND ${candidate} -c "import numpy" RESULT_VARIABLE numpy_missing
                  OUTPUT_QUIET ERROR_QUIET)
  if(numpy_missing EQUAL 0)
    set(RELAY_NUMPY_PYTHON ${candidate})
    break()
  endif()
endforeach()

# Models checked against numpy by a script beside them (issue 17 §4): the quantized CNN's
# output bit for bit against numpy's integer arithmetic, the SSD detection head's
# detections against a numpy implementation. Test model_numeric_NAME runs NAME_check.py.
foreach(model quantized_cnn detection_head)
  if(RELAY_NUMPY_PYTHON)
    add_test(NAME model_numeric_${model}
      COMMAND ${RELAY_NUMPY_PYTHON} ${RELAY_MODELS_DIR}/${model}_check.py
              $<TARGET_FILE:relay> ${RELAY_MODELS_DIR}/${model}.relay)
    set_tests_properties(model_numeric_${model} PROPERTIES TIMEOUT 120)
  else()
    message(STATUS "no python3 with numpy: model_numeric_${model} is not registered")
  endif()
endforeach()

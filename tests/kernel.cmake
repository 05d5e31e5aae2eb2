# Jupyter kernel tests (tests/kernel/): the protocol through jupyter_client, and the
# example notebooks executed with nbconvert. Both install the kernelspec into a
# temporary Jupyter tree with `relay jupyter --install`. Included by tests/CMakeLists.txt;
# only when the kernel is built (xeus found). Debian's Python: its jupyter_client and
# nbconvert are the ones the project depends on (docs/jupyter.md).
find_program(RELAY_KERNEL_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(TARGET relay_kernel AND RELAY_KERNEL_PYTHON3)
  add_test(NAME kernel_protocol
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/test_kernel.py $<TARGET_FILE:relay>)
  # JupyterLab's debugger protocol (debug_request on control, debug_event on IOPub).
  add_test(NAME kernel_debugger
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/test_debugger.py $<TARGET_FILE:relay>)
  add_test(NAME kernel_notebooks
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/run_notebooks.py $<TARGET_FILE:relay>
                   ${PROJECT_SOURCE_DIR}/examples/notebooks)
  # The same notebooks exported with `nbconvert --to html --execute` (what publishing a
  # notebook does): every output must fit into HTML.
  add_test(NAME kernel_notebooks_html
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/run_notebooks.py $<TARGET_FILE:relay>
                   ${PROJECT_SOURCE_DIR}/examples/notebooks --to html)
  # 77: jupyter_client or nbconvert is missing for that Python.
  set_tests_properties(kernel_protocol kernel_debugger kernel_notebooks kernel_notebooks_html
                       PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()

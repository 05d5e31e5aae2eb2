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
  # The comparison of committed and fresh notebook outputs that kernel_notebooks uses.
  add_test(NAME kernel_notebook_outputs
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/test_notebook_outputs.py)
  # The kernelspec's CodeMirror mode (kernel.js), tokenised by Debian's CodeMirror in node.
  find_program(RELAY_NODE node)
  if(RELAY_NODE)
    add_test(NAME kernel_codemirror_mode
             COMMAND ${RELAY_NODE} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/test_codemirror_mode.js
                     ${PROJECT_SOURCE_DIR}/jupyter-kernel/codemirror/kernel.js)
    set_tests_properties(kernel_codemirror_mode PROPERTIES SKIP_RETURN_CODE 77)
  endif()
  # The kernel in Debian's classic Notebook, driven in headless Chromium by puppeteer-core
  # (tests/kernel/browser/); screenshots are kept in the build tree.
  add_test(NAME kernel_notebook_browser
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/test_notebook_browser.py
                   $<TARGET_FILE:relay> ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/test-artifacts/notebook-browser)
  # Random cells, completions and inspections; a failed cell must leave the session as it
  # was (tests/kernel/fuzz_kernel.py).
  add_test(NAME kernel_fuzz
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/fuzz_kernel.py $<TARGET_FILE:relay>
                   --seeds 1:4 --steps 60)
  # The same cells run under the debugger, with random debug requests made from the DAP
  # schema while they run or stop (tests/kernel/fuzz_kernel_debugger.py).
  add_test(NAME kernel_fuzz_debugger
           COMMAND ${RELAY_KERNEL_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/kernel/fuzz_kernel_debugger.py
                   $<TARGET_FILE:relay> --seeds 1:4 --steps 80)
  # 77: jupyter_client or nbconvert is missing for that Python (the browser test: Chromium
  # or the classic Notebook).
  set_tests_properties(kernel_protocol kernel_debugger kernel_notebooks kernel_notebooks_html kernel_notebook_browser
                       kernel_fuzz kernel_fuzz_debugger PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  # One browser and Notebook server at a time, not beside the other kernel tests' load.
  set_tests_properties(kernel_notebook_browser PROPERTIES RUN_SERIAL TRUE TIMEOUT 240)
endif()

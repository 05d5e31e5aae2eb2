# relay_embed(TARGET SYMBOL FILES...): compiles the files' bytes into TARGET as the
# array `relay::SYMBOL` (see lang/base/embedded.h). Rebuilt when a file changes.
function(relay_embed TARGET SYMBOL)
  set(out ${PROJECT_BINARY_DIR}/generated/embed_${SYMBOL}.cpp)
  # Lists cannot cross a custom command's command line intact; join with '|'.
  string(REPLACE ";" "|" files_arg "${ARGN}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${SYMBOL} "-DFILES=${files_arg}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "Embedding ${SYMBOL}"
    VERBATIM)
  target_sources(${TARGET} PRIVATE ${out})
endfunction()

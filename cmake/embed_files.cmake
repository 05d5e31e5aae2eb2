# Script mode: cmake -DOUT=file.cpp -DSYMBOL=name -DFILES="a|b" -P embed_files.cmake
# Writes a C++ source defining `const relay::EmbeddedFile SYMBOL[]` (terminated by a
# null entry) holding each file's base name and bytes.
string(REPLACE "|" ";" FILES "${FILES}")
set(body "#include \"lang/base/embedded.h\"\nnamespace relay {\nextern const EmbeddedFile ${SYMBOL}[];\nconst EmbeddedFile ${SYMBOL}[] = {\n")
foreach(f ${FILES})
  get_filename_component(name ${f} NAME)
  file(READ ${f} hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR size "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" escaped "${hex}")
  # Split the literal every 64 bytes to keep lines short.
  string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){64})" "\\1\"\n\"" escaped "${escaped}")
  string(APPEND body "  {\"${name}\", std::string_view(\"${escaped}\", ${size})},\n")
endforeach()
string(APPEND body "  {{}, {}},\n};\n}  // namespace relay\n")
file(WRITE ${OUT}.tmp "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})

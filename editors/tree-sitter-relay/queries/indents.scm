; Indentation: the contents of braces, brackets and parentheses are indented one level;
; the closing delimiter goes back to the opening line's level.
[
  (block)
  (type_definition)
  (match_expression)
  (arguments)
  (parameters)
  (array)
  (tuple)
] @indent

[
  "}"
  ")"
  "]"
] @indent_end @branch

; Foldable regions: definitions, bodies, long argument lists and the metadata section.
[
  (function_definition)
  (type_definition)
  (block)
  (arguments)
  (parameters)
  (match_expression)
  (array)
  (metadata_section)
  (block_comment)
] @fold

; Text objects (nvim-treesitter-textobjects, Helix `mif`/`maf` style): functions, calls,
; parameters and arguments, comments.

(function_definition body: (block) @function.inner) @function.outer
(function_expression body: (block) @function.inner) @function.outer

(call arguments: (arguments) @call.inner) @call.outer

(parameters (parameter) @parameter.inner)
(parameters (attribute) @parameter.inner)
(arguments (_) @parameter.inner)

(type_definition) @class.outer
(constructor_definition) @class.inner

[
  (line_comment)
  (block_comment)
  (doc_comment)
] @comment.outer

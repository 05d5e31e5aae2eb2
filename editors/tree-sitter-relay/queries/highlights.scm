; Syntax highlighting for Relay. Capture names follow the common tree-sitter set
; (Neovim, Helix, Zed and the toolchain's own highlighter read the same names).
; Where two patterns capture the same node, the more specific one comes first (the
; tree-sitter convention: the first pattern wins) and carries priority 101 (Neovim, where
; the higher priority wins); the toolchain's highlighter honours both.

[
  (line_comment)
  (block_comment)
] @comment
(doc_comment) @comment.documentation

[
  "def"
  "fn"
  "let"
  "type"
  "extern"
  "free_var"
] @keyword

[
  "if"
  "else"
  "match"
  "match?"
] @keyword.control

(ref_expression operator: _ @function.builtin)
"ref" @function.builtin

; Definitions and calls.
(function_definition name: (global_var) @function)
(call function: (identifier) @function.call)
((call function: (local_var) @function.call) (#set! "priority" 101))
(global_var) @function

((type_definition name: (type_identifier) @type.definition) (#set! "priority" 101))
(constructor_definition name: (constructor) @constructor)
(constructor) @constructor
(tensor_type "Tensor" @type.builtin)
(dtype) @type.builtin
(type_name name: (type_identifier) @type)
(type_identifier) @type
((type_parameters (type_identifier) @type.parameter) (#set! "priority" 101))
(incomplete_type) @type
(dimension_name) @variable.parameter
(any_dimension) @type

((parameter name: (_) @variable.parameter) (#set! "priority" 101))
(local_var) @variable
(graph_var) @variable

(attribute key: (attribute_name) @property)
(file_attribute name: (identifier) @attribute)
(file_attribute ["#[" "]"] @attribute)
(metadata_section "#[metadata]" @attribute)

(integer) @number
; A shape of integer literals is one token (grammar.js): its numbers and punctuation alike.
(static_shape) @number
(float) @number.float
(boolean) @boolean
(none) @constant.builtin
(string) @string
(meta_reference) @constant
(wildcard) @variable.builtin

[
  "+" "-" "*" "/"
  "==" "!=" "<" "<=" ">" ">="
  "=" "->" "=>"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ";" ":" "."] @punctuation.delimiter

; Syntax highlighting for Relay. Capture names follow the common tree-sitter set
; (Neovim, Helix, Zed and the toolchain's own highlighter read the same names).

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
(call function: (global_var) @function.call)
(call function: (identifier) @function.call)
(call function: (local_var) @function.call)
(global_var) @function

(type_definition name: (type_identifier) @type.definition)
(constructor_definition name: (constructor) @constructor)
(constructor) @constructor
(tensor_type "Tensor" @type.builtin)
(dtype) @type.builtin
(type_name name: (type_identifier) @type)
(type_identifier) @type
(type_parameters (type_identifier) @type.parameter)
(incomplete_type) @type
(dimension_name) @variable.parameter
(any_dimension) @type

(parameter name: (_) @variable.parameter)
(local_var) @variable
(graph_var) @variable
(identifier) @variable

(attribute key: (attribute_name) @property)
(file_attribute name: (identifier) @attribute)
(file_attribute ["#[" "]"] @attribute)
(metadata_section "#[metadata]" @attribute)

(integer) @number
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

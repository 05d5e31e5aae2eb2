; Scopes and definitions of Relay names (docs/language.md, "Scopes"): function
; parameters, blocks, unbraced sequences and match clauses open a scope; `let`, graph
; bindings, `free_var` and pattern variables define names in it.

[
  (function_definition)
  (function_expression)
  (block)
  (sequence)
  (match_clause)
] @local.scope

(parameter name: (_) @local.definition)
(let_binding name: (_) @local.definition)
(graph_binding name: (graph_var) @local.definition)
(free_var_declaration name: (local_var) @local.definition)
(variable_pattern name: (local_var) @local.definition)
(type_parameters (type_identifier) @local.definition)

(local_var) @local.reference
(graph_var) @local.reference

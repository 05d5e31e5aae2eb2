// tree-sitter grammar for the Relay text format v0.0.5 as TVM 0.14 prints it, plus this
// toolchain's extensions (docs/language.md): `///` doc comments, symbolic dimensions,
// unsuffixed floats, unary minus, `#[import = "prelude"]`, dotted local names, chained
// projections, `match` as a binding value, `ref(T)` types and string escapes.
//
// The hand-written parser in lang/syntax/ is the reference: the C++ test
// tests/editors/tree_sitter_accept_test.cpp parses every .relay file of the repository
// and the shared TVM corpus with both and checks that they accept the same files.
// Value checks (number ranges, known dtypes, duplicate attributes, ...) are not
// structure and are left to the toolchain.
//
// Regenerate src/parser.c with `tree-sitter generate` (scripts/setup.sh builds the CLI
// when this file is newer than src/parser.c).

const PREC = {
  compare_eq: 7,
  compare: 8,
  add: 10,
  mul: 12,
  unary: 14,
  postfix: 16,
};

// Names may contain `/` followed by a letter/digit, and `.` followed by a letter
// (`nn.conv2d`, `%fc1.weight`, `%conv1/weight`); a `.` before a digit is a projection.
const NAME_TAIL = /([A-Za-z0-9_]|\/[A-Za-z0-9_]|\.[A-Za-z_])*/.source;

// A block comment nests (`/* a /* b */ c */`), which no regular expression matches to any
// depth. An external scanner could count, but tree-sitter runs it before every token of
// the file (comments are extras, valid everywhere) and keeps each comment it returns on the
// heap: an eighth of a printed model's parse time (bench/README.md). So the lexer matches
// nesting up to COMMENT_DEPTH levels with one expression, built from the inside out:
// inside a comment, any character but `*` and `/`, a run of `*` or `/` not closing or
// opening a comment, or a nested comment. A comment nested deeper is a syntax error here (the toolchain reads any
// depth); commented-out code that itself holds commented-out code is depth 3.
const COMMENT_DEPTH = 8;
function blockCommentPattern(depth) {
  const plain = '[^*/]|\\*+[^*/]|\\/+[^*/]';
  let body = `(${plain})*`;
  for (let d = 1; d < depth; d++) {
    body = `(${plain}|\\/+\\*${body}\\*+\\/)*`;
  }
  return new RegExp(`\\/\\*${body}\\*+\\/`);
}

function commaSep(rule) {
  return optional(commaSep1(rule));
}

// One or more, separated by commas, with an optional trailing comma (as the
// hand-written parser allows in every list).
function commaSep1(rule) {
  return seq(rule, repeat(seq(',', rule)), optional(','));
}

module.exports = grammar({
  name: 'relay',

  word: $ => $.identifier,

  extras: $ => [/\s/, $.line_comment, $.doc_comment, $.block_comment],

  supertypes: $ => [$._definition],

  // The hidden choice rules are inlined: no tree node for each `_expression` or
  // `_argument` wrapper, which makes a large module's parse faster (bench/frontend).
  inline: $ => [
    $._argument,
    $._statement,
    $._attribute_value,
    $._expression,
    $._type,
    $._dimension,
    $._pattern,
  ],

  rules: {
    // File attributes may also stand between definitions: the toolchain reports a late
    // one (E0017), which is a check on a well-formed file, not a syntax error.
    source_file: $ => seq(
      repeat($.file_attribute),
      optional(choice(
        seq($._definition, repeat(choice($._definition, $.file_attribute))),
        $._body,
      )),
      optional($.metadata_section),
    ),

    // ---------------------------------------------------------------- file level

    file_attribute: $ => seq(
      '#[',
      field('name', $.identifier),
      optional(seq('=', field('value', $.string))),
      ']',
    ),

    // `#[metadata]` and everything after it: TVM's node JSON (injections.scm).
    metadata_section: $ => seq(
      alias(token(prec(1, /#\[[ \t]*metadata[ \t]*\]/)), '#[metadata]'),
      optional(field('json', $.metadata_json)),
    ),
    metadata_json: $ => token(prec(-1, /[^\s](.|\n)*/)),

    _definition: $ => choice($.function_definition, $.type_definition),

    function_definition: $ => seq(
      'def',
      field('name', $.global_var),
      optional(field('type_parameters', $.type_parameters)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      field('body', $.block),
    ),

    type_definition: $ => seq(
      optional('extern'),
      'type',
      field('name', alias($.identifier, $.type_identifier)),
      optional(field('type_parameters', $.type_parameters)),
      optional(seq('{', commaSep($.constructor_definition), '}')),
    ),

    constructor_definition: $ => seq(
      field('name', alias($.identifier, $.constructor)),
      optional(seq('(', commaSep($._type), ')')),
    ),

    type_parameters: $ => seq('[', commaSep(alias($.identifier, $.type_identifier)), ']'),

    parameters: $ => seq('(', commaSep(choice($.parameter, $.attribute)), ')'),

    parameter: $ => seq(
      field('name', choice($.local_var, $.graph_var)),
      optional(seq('{', commaSep($.attribute), '}')),
      optional(seq(':', field('type', $._type))),
    ),

    // ---------------------------------------------------------------- bodies

    // A sequence of bindings and effects ending in the value of the block.
    _body: $ => seq(repeat($._statement), $._expression),

    block: $ => seq('{', $._body, '}'),

    // Unbraced bindings where the hand-written parser reads a block: call arguments,
    // tuple fields, an `if` condition, a match clause's body.
    sequence: $ => seq(repeat1($._statement), $._expression),

    _argument: $ => choice($._expression, $.sequence),

    _statement: $ => choice(
      $.let_binding,
      $.graph_binding,
      $.free_var_declaration,
      $.expression_statement,
    ),

    let_binding: $ => seq(
      'let',
      field('name', choice($.local_var, $.graph_var)),
      optional(seq(':', field('type', $._type))),
      '=',
      field('value', $._expression),
      ';',
    ),

    graph_binding: $ => seq(
      field('name', $.graph_var),
      '=',
      field('value', $._expression),
      ';',
    ),

    free_var_declaration: $ => seq(
      'free_var',
      field('name', $.local_var),
      optional(seq(':', field('type', $._type))),
      ';',
    ),

    expression_statement: $ => seq($._expression, ';'),

    // ---------------------------------------------------------------- expressions

    _expression: $ => choice(
      $.binary_expression,
      $.unary_expression,
      $.call,
      $.projection,
      $.local_var,
      $.graph_var,
      $.global_var,
      $.identifier,
      $.integer,
      $.float,
      $.boolean,
      $.meta_reference,
      $.function_expression,
      $.if_expression,
      $.match_expression,
      $.ref_expression,
      $.tuple,
      $.parenthesized_expression,
      $.block,
    ),

    binary_expression: $ => {
      const table = [
        [PREC.mul, choice('*', '/')],
        [PREC.add, choice('+', '-')],
        [PREC.compare, choice('<', '<=', '>', '>=')],
        [PREC.compare_eq, choice('==', '!=')],
      ];
      return choice(...table.map(([p, op]) => prec.left(p, seq(
        field('left', $._expression),
        field('operator', op),
        field('right', $._expression),
      ))));
    },

    unary_expression: $ => prec(PREC.unary, seq(field('operator', '-'), field('operand', $._expression))),

    call: $ => prec(PREC.postfix, seq(
      field('function', $._expression),
      field('arguments', $.arguments),
    )),

    arguments: $ => seq('(', commaSep(choice($._argument, $.attribute)), ')'),

    attribute: $ => seq(
      field('key', alias($.identifier, $.attribute_name)),
      '=',
      field('value', $._attribute_value),
    ),

    _attribute_value: $ => choice($._expression, $.string, $.array, $.none),

    array: $ => seq('[', commaSep($._attribute_value), ']'),

    projection: $ => prec(PREC.postfix, seq(
      field('tuple', $._expression),
      '.',
      field('index', alias($._projection_index, $.integer)),
    )),
    // At most nine digits, as the hand-written parser reads an index (E0005 beyond).
    _projection_index: $ => token.immediate(/[0-9]{1,9}/),

    function_expression: $ => seq(
      'fn',
      optional(field('type_parameters', $.type_parameters)),
      field('parameters', $.parameters),
      optional(seq('->', field('return_type', $._type))),
      field('body', $.block),
    ),

    if_expression: $ => seq(
      'if',
      '(',
      field('condition', $._argument),
      ')',
      field('consequence', $.block),
      'else',
      field('alternative', $.block),
    ),

    match_expression: $ => seq(
      choice('match', 'match?'),
      field('value', $._expression),
      '{',
      commaSep($.match_clause),
      '}',
    ),

    match_clause: $ => seq(
      field('pattern', $._pattern),
      '=>',
      field('body', $._argument),
    ),

    ref_expression: $ => choice(
      seq(field('operator', choice('ref', 'ref_read')), '(', $._argument, ')'),
      seq(field('operator', 'ref_write'), '(', $._argument, ',', $._argument, ')'),
    ),

    tuple: $ => choice(
      seq('(', ')'),
      seq('(', $._argument, ',', ')'),
      seq('(', $._argument, repeat1(seq(',', $._argument)), optional(','), ')'),
    ),

    parenthesized_expression: $ => seq('(', $._argument, ')'),

    // ---------------------------------------------------------------- patterns

    _pattern: $ => choice(
      $.wildcard,
      $.variable_pattern,
      $.constructor_pattern,
      $.tuple_pattern,
    ),

    wildcard: $ => '_',

    variable_pattern: $ => seq(
      field('name', $.local_var),
      optional(seq(':', field('type', $._type))),
    ),

    constructor_pattern: $ => seq(
      field('constructor', alias($.identifier, $.constructor)),
      optional(seq('(', commaSep($._pattern), ')')),
    ),

    tuple_pattern: $ => seq('(', commaSep($._pattern), ')'),

    // ---------------------------------------------------------------- types

    _type: $ => choice(
      $.tensor_type,
      $.type_name,
      $.tuple_type,
      $.function_type,
      $.ref_type,
      $.incomplete_type,
    ),

    tensor_type: $ => seq(
      'Tensor',
      '[',
      field('shape', choice($.static_shape, $.shape)),
      ',',
      field('dtype', alias($.identifier, $.dtype)),
      ']',
    ),

    // A shape of integer literals (every shape of a static model, as TVM prints it) is one
    // token: a printed model repeats its shapes in every parameter's type, where their
    // parts were a fifth of its tokens. Any other shape (a name, `?`, arithmetic, a
    // suffix, a comment inside) has its dimensions as nodes.
    shape: $ => seq('(', commaSep($._dimension), ')'),
    static_shape: $ => token(prec(1, /\([ \t]*([0-9]+[ \t]*(,[ \t]*[0-9]+[ \t]*)*,?[ \t]*)?\)/)),

    _dimension: $ => choice(
      $.integer,
      $.any_dimension,
      alias($.identifier, $.dimension_name),
      $.meta_reference,
      $.parenthesized_dimension,
      $.binary_dimension,
    ),

    any_dimension: $ => '?',

    parenthesized_dimension: $ => seq('(', $._dimension, ')'),

    binary_dimension: $ => choice(
      prec.left(PREC.mul, seq(field('left', $._dimension), field('operator', choice('*', '/')), field('right', $._dimension))),
      prec.left(PREC.add, seq(field('left', $._dimension), field('operator', choice('+', '-')), field('right', $._dimension))),
    ),

    // A data type (`float32`), a type parameter or an ADT with its arguments.
    type_name: $ => seq(
      field('name', alias($.identifier, $.type_identifier)),
      optional(seq('[', commaSep($._type), ']')),
    ),

    tuple_type: $ => seq('(', commaSep($._type), ')'),

    function_type: $ => seq(
      'fn',
      optional(field('type_parameters', $.type_parameters)),
      '(',
      commaSep($._type),
      ')',
      '->',
      field('return_type', $._type),
    ),

    ref_type: $ => seq('ref', '(', $._type, ')'),

    incomplete_type: $ => '_',

    // ---------------------------------------------------------------- tokens

    // A lone `_` is the wildcard pattern or the unknown type, never a name.
    identifier: $ => new RegExp('([A-Za-z]|_[A-Za-z0-9_])' + NAME_TAIL),
    local_var: $ => new RegExp('%[A-Za-z_]' + NAME_TAIL),
    graph_var: $ => /%[0-9]+/,
    global_var: $ => new RegExp('@[A-Za-z_]' + NAME_TAIL),

    integer: $ => /[0-9]+(i|i16|i32|i64)?/,
    float: $ => choice(
      token(choice(
        /[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?(f|f16|f32|f64)?/,
        /[0-9]+[eE][+-]?[0-9]+(f|f16|f32|f64)?/,
        /[0-9]+(f|f16|f32|f64)/,
      )),
      'inff',
      'nanf',
    ),
    boolean: $ => choice('True', 'False'),
    none: $ => choice('None', 'nullptr'),
    string: $ => /"([^"\\\n]|\\[^\n])*"/,
    meta_reference: $ => /meta\[[A-Za-z0-9_.]+\]\[[0-9]+\]/,

    // `//` comments; `///` (but not `////`) is a doc comment, as in the lexer.
    line_comment: $ => token(choice(/\/\/([^\/\n][^\n]*)?/, /\/\/\/\/[^\n]*/)),
    doc_comment: $ => token(/\/\/\/([^\/\n][^\n]*)?/),
    block_comment: $ => token(blockCommentPattern(COMMENT_DEPTH)),
  },
});

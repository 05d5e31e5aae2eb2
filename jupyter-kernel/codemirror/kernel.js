// The Relay mode for the classic Jupyter Notebook's editor (CodeMirror 5). A kernelspec's
// kernel.js is loaded by the Notebook when a notebook starts this kernel; its `onload`
// registers the mode that `language_info.codemirror_mode` ("relay") names.
//
// Tokens follow the project's grammar (lang/syntax/lexer, the VS Code grammar in
// editors/vscode/syntaxes): CodeMirror's style names, so every Notebook theme colours them.
//   keyword     def fn let free_var type extern if else match match? ref
//   atom        True False None, constructors (Cons, Nil, Some)
//   builtin     operator names called: add(, nn.dense(, qnn.requantize(
//   variable-2  locals: %x, %fc1.weight, %0
//   def         globals: @main, @map
//   type        Tensor, dtypes (float32, int64, uint8x4, bool)
//   attribute   attribute names before `=`: units=, axis=
//   number      literals with their suffixes: 1, 2.5f, 1e-3f32, 7i64, inff, nanf
//   string      "NCHW"
//   comment     // line, /// doc, /* nested /* block */ */
//   operator    => == != <= >= < > = + - * / ? ->
//   meta        #[version = "0.0.5"], #[metadata]
define(["codemirror/lib/codemirror"], function (CodeMirror) {
  "use strict";

  var KEYWORDS = /^(?:def|fn|let|free_var|type|extern|if|else|match\??|ref)$/;
  var ATOMS = /^(?:True|False|None)$/;
  var DTYPE = /^(?:u?int\d+|float\d+|bfloat16|bool)(?:x\d+)?$/;
  var NAME_REST = /^(?:\w|\/(?=\w)|\.(?=[A-Za-z_]))*/;

  function number(stream) {
    // A `-` is part of a literal only where no operand precedes it (the lexer's rule);
    // the tokenizer hands it here only in that case.
    if (stream.match(/^-?(?:inff|nanf)\b/)) return true;
    return Boolean(stream.match(/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?:f16|f32|f64|f|i16|i32|i64|i|u\d+)?\b/));
  }

  function blockComment(stream, state) {
    while (!stream.eol()) {
      if (stream.match("/*")) {
        state.commentDepth++;
      } else if (stream.match("*/")) {
        if (--state.commentDepth === 0) {
          state.tokenize = base;
          break;
        }
      } else {
        stream.next();
      }
    }
    return "comment";
  }

  function string(stream, state) {
    var escaped = false, ch;
    while ((ch = stream.next()) != null) {
      if (ch === '"' && !escaped) {
        state.tokenize = base;
        return "string";
      }
      escaped = !escaped && ch === "\\";
    }
    state.tokenize = base;  // strings do not span lines
    return "string";
  }

  function base(stream, state) {
    if (stream.eatSpace()) return null;
    var afterOperand = state.afterOperand;
    state.afterOperand = false;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.commentDepth = 1;
      state.tokenize = blockComment;
      return blockComment(stream, state);
    }
    if (stream.match("#[")) {
      stream.match(/^[^\]]*\]?/);
      return "meta";
    }
    if (stream.peek() === '"') {
      stream.next();
      state.tokenize = string;
      return string(stream, state);
    }
    if (stream.match(/^%\d+/) || stream.match(/^%[A-Za-z_]/)) {
      stream.match(NAME_REST);
      state.afterOperand = true;
      return "variable-2";
    }
    if (stream.match(/^@[A-Za-z_]/)) {
      stream.match(NAME_REST);
      state.afterOperand = true;
      return "def";
    }
    var c = stream.peek();
    if (/\d/.test(c) || (c === "-" && !afterOperand && /^-(?:\d|inff|nanf)/.test(stream.string.slice(stream.pos)))) {
      if (number(stream)) {
        state.afterOperand = true;
        return "number";
      }
    }
    if (stream.match(/^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/)) {
      var word = stream.current();
      state.afterOperand = true;
      if (KEYWORDS.test(word)) {
        state.afterOperand = false;
        return "keyword";
      }
      if (/^(?:inff|nanf)$/.test(word)) return "number";
      if (ATOMS.test(word)) return "atom";
      if (word === "Tensor" || DTYPE.test(word)) return "type";
      if (stream.match(/^\s*=(?![=>])/, false)) return "attribute";
      if (stream.match(/^\s*\(/, false)) return /^[A-Z]/.test(word) ? "atom" : "builtin";
      if (/^[A-Z]/.test(word)) return "atom";
      return "variable";
    }
    if (stream.match(/^(?:=>|->|==|!=|<=|>=|[<>=+\-*\/?])/)) return "operator";
    stream.next();
    state.afterOperand = c === ")" || c === "]";
    return null;
  }

  function defineMode() {
    CodeMirror.defineMode("relay", function () {
      return {
        startState: function () {
          return {tokenize: base, commentDepth: 0, afterOperand: false};
        },
        copyState: function (s) {
          return {tokenize: s.tokenize, commentDepth: s.commentDepth, afterOperand: s.afterOperand};
        },
        token: function (stream, state) {
          return state.tokenize(stream, state);
        },
        lineComment: "//",
        blockCommentStart: "/*",
        blockCommentEnd: "*/",
        electricChars: "}",
      };
    });
    CodeMirror.defineMIME("text/x-relay", "relay");
  }

  return {
    onload: function () {
      defineMode();
      // The Notebook asks for kernel_info (which names the mode) while it loads this file;
      // when the answer came first, it found no "relay" mode and fell back to plain text.
      // Set the mode on every code cell, and as the default of new ones, now.
      var nb = window.Jupyter && window.Jupyter.notebook;
      if (nb && nb._dispatch_mode) nb._dispatch_mode("relay", "relay");
    },
  };
});

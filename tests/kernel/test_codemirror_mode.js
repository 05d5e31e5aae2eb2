// The Relay mode of the kernelspec's kernel.js (jupyter-kernel/codemirror/kernel.js),
// tokenised with CodeMirror 5's runMode in node, as classic Notebook's editor runs it:
// each token of the project's grammar gets its style.
//
//   node test_codemirror_mode.js KERNEL_JS
// Exit status 77 (skipped) without Debian's CodeMirror (libjs-codemirror, which the
// jupyter-notebook package brings).
"use strict";

const fs = require("fs");

const RUNMODE = "/usr/share/javascript/codemirror/addon/runmode/runmode.node.js";
if (!fs.existsSync(RUNMODE)) {
  console.log("skipped: " + RUNMODE + " is not installed (libjs-codemirror)");
  process.exit(77);
}
const CodeMirror = require(RUNMODE);
let onloadRan = false;
// kernel.js is an AMD module; the Notebook loads it with requirejs and calls onload.
global.define = (deps, factory) => {
  if (deps.join() !== "codemirror/lib/codemirror") throw new Error("unexpected dependencies " + deps);
  factory(CodeMirror).onload();
  onloadRan = true;
};
global.window = {};  // no Jupyter: onload must not need one
require(require("path").resolve(process.argv[2]));

function tokens(src) {
  const out = [];
  CodeMirror.runMode(src, "relay", (text, style) => {
    if (style) out.push(style + " " + text);
  });
  return out;
}

const cases = [
  ["/// Doc.\ndef @twice(%x: Tensor[(3), float32]) -> Tensor[(3), float32] { add(%x, %x) // sum\n}",
   ["comment /// Doc.", "keyword def", "def @twice", "variable-2 %x", "type Tensor", "number 3", "type float32",
    "operator ->", "type Tensor", "number 3", "type float32", "builtin add", "variable-2 %x", "variable-2 %x",
    "comment // sum"]],
  ["let %y = nn.dense(%x, %w, units=16) * -1.5f - 2i64;",
   ["keyword let", "variable-2 %y", "operator =", "builtin nn.dense", "variable-2 %x", "variable-2 %w",
    "attribute units", "operator =", "number 16", "operator *", "number -1.5f", "operator -", "number 2i64"]],
  ["/* a /* nested */ still */ Cons(1, Nil) True \"NCHW\"",
   ["comment /* a /* nested */ still */", "atom Cons", "number 1", "atom Nil", "atom True", "string \"NCHW\""]],
  ["#[version = \"0.0.5\"]\nmatch (%0) { Some(%v) => %v, _ => inff }",
   ["meta #[version = \"0.0.5\"]", "keyword match", "variable-2 %0", "atom Some", "variable-2 %v", "operator =>",
    "variable-2 %v", "variable _", "operator =>", "number inff"]],
  ["%a - 3 - -3", ["variable-2 %a", "operator -", "number 3", "operator -", "number -3"]],
];

let failed = 0;
for (const [src, want] of cases) {
  const got = tokens(src);
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) failed++;
  console.log((ok ? "ok   " : "FAIL ") + JSON.stringify(src) + (ok ? "" : "\n  got  " + JSON.stringify(got) +
              "\n  want " + JSON.stringify(want)));
}
if (!onloadRan || CodeMirror.mimeModes["text/x-relay"] !== "relay") {
  console.log("FAIL the mode or its MIME type was not registered");
  failed++;
}
process.exit(failed ? 1 : 0);

// The Relay kernel in classic Jupyter Notebook, in headless Chromium (puppeteer-core).
// Started by tests/kernel/test_notebook_browser.py, which runs the Notebook server:
//
//   node notebook_e2e.js BASE_URL ARTIFACT_DIR CHROMIUM
//
// e2e.ipynb (written by the Python side) is run cell by cell in the page, then its DOM is
// checked: the Relay editor mode's tokens, a tensor's table, a scalar and a nested value,
// the `:viz` graph as SVG (the session's own outputs are trusted), a coloured error whose
// long source line is windowed (`...`) rather than wrapped, completion (Tab) and the call
// tooltip (Shift-Tab inside `nn.dense(`). untrusted.ipynb (the committed example) is then
// opened as it is: its graph must show as the PNG, its tables as tables. Screenshots go to
// ARTIFACT_DIR. Chromium is started here and stopped by its PID whatever happens.
"use strict";

const path = require("path");
const puppeteer = require("puppeteer-core");
// Shared with the VS Code extension's browser test.
const {Checks, until, startChromium, stopChromium} =
  require(path.join(__dirname, "..", "..", "support", "browser.js"));

const [base, artifacts, chromium] = process.argv.slice(2);
const checks = new Checks();
const check = checks.check.bind(checks);

async function shot(page, name) {
  await page.screenshot({path: path.join(artifacts, name + ".png"), fullPage: true});
}

async function openNotebook(page, name) {
  await page.goto(base + "/notebooks/" + name, {waitUntil: "load", timeout: 30000});
  const ready = await until(page, () => {
    const nb = window.Jupyter && window.Jupyter.notebook;
    const k = nb && nb.kernel;
    return nb && nb._fully_loaded && k && k.info_reply && k.info_reply.language_info ? true : null;
  }, undefined, 60000);
  check(ready === true, name + ": the notebook loads and the Relay kernel answers kernel_info");
  return ready === true;
}

// What a cell shows: its input's highlighted tokens and its output's parts.
async function cellReport(page, index) {
  return page.evaluate((i) => {
    const cell = Jupyter.notebook.get_cell(i);
    const input = cell.element[0].querySelector(".input_area");
    const out = cell.output_area.element[0];
    const classes = new Set();
    input.querySelectorAll("span[class*='cm-']").forEach((s) => s.classList.forEach((c) => classes.add(c)));
    const errorPre = out.querySelector(".output_error pre, .output_error");
    const img = out.querySelector("img");
    return {
      source: cell.get_text(),
      prompt: cell.input_prompt_number,
      mode: cell.code_mirror.getMode().name,
      tokens: [...classes].filter((c) => c.startsWith("cm-")),
      tensorTables: out.querySelectorAll("table.rv-t").length,
      tensorCells: [...out.querySelectorAll("table.rv-t td")].map((td) => td.textContent),
      fieldTables: out.querySelectorAll("table.rv-fields").length,
      lists: out.querySelectorAll("ol, ul").length,
      scalar: (out.querySelector("code.rv-scalar") || {}).textContent || null,
      scalarType: (out.querySelector(".rv-type") || {}).textContent || null,
      anyTable: out.querySelectorAll("table").length,
      svgNodes: out.querySelectorAll("svg g.node").length,
      svg: out.querySelectorAll("svg").length,
      png: img && img.src.startsWith("data:image/png") ? img.naturalWidth : 0,
      errorText: errorPre ? errorPre.textContent : null,
      errorColours: errorPre ? errorPre.querySelectorAll("span[class*='ansi-']").length : 0,
      // The last line of the traceback the kernel sent (the output's model).
      tracebackEnd: (() => {
        const e = cell.output_area.outputs.find((o) => o.output_type === "error");
        return e && e.traceback.length ? e.traceback[e.traceback.length - 1] : null;
      })(),
    };
  }, index);
}

async function runTrusted(page) {
  if (!(await openNotebook(page, "e2e.ipynb"))) return;
  const info = await page.evaluate(() => Jupyter.notebook.kernel.info_reply.language_info);
  check(info.name === "relay" && info.codemirror_mode === "relay" && info.file_extension === ".relay" &&
        info.mimetype === "text/x-relay", "language_info names Relay and its editor mode", info);
  // Run every cell, as Cell > Run All does; the last cell errors on purpose.
  await page.evaluate(() => Jupyter.notebook.execute_all_cells());
  const done = await until(page, () => {
    const cells = Jupyter.notebook.get_cells().filter((c) => c.cell_type === "code");
    return cells.every((c) => typeof c.input_prompt_number === "number") && !Jupyter.notebook.kernel_busy
      ? true : null;
  }, undefined, 90000);
  check(done === true, "every cell runs");
  await shot(page, "e2e-run");

  const cells = [];
  const count = await page.evaluate(() => Jupyter.notebook.ncells());
  for (let i = 0; i < count; ++i) cells.push(await cellReport(page, i));
  const cell = (start) => cells.find((c) => c.source.startsWith(start)) || {};

  // The Relay mode from the kernelspec's kernel.js, with the grammar's token classes.
  const def = cell("/// Doubles");
  check(def.mode === "relay", "code cells use the Relay editor mode", def.mode);
  for (const t of ["cm-keyword", "cm-def", "cm-variable-2", "cm-type", "cm-comment", "cm-builtin", "cm-number"])
    check(def.tokens.includes(t), "highlighting: " + t + " in the definition", def.tokens);
  const call = cell("@twice(");
  for (const t of ["cm-attribute", "cm-string", "cm-def"])
    check(call.tokens.includes(t), "highlighting: " + t + " in the call", call.tokens);

  // A tensor: a table of its elements, numbers as the text form prints them.
  check(call.tensorTables === 1 && call.tensorCells.join(" ") === "2. 2. 2.", "a tensor is a table",
        call.tensorCells);
  // The graph, as SVG: this session's outputs are trusted.
  const viz = cell(":viz");
  check(viz.svg === 1 && viz.svgNodes > 0, "the :viz graph shows as SVG in a trusted notebook", viz);
  // A nested value: tables of fields, no HTML lists for the notebook to restyle.
  const nested = cell("(Cons(");
  check(nested.fieldTables >= 1 && nested.lists === 0, "a nested value is tables, not lists", nested);
  // A scalar: its value and type, not a table.
  const scalar = cell("sum(");
  check(scalar.scalar === "4.0" && scalar.anyTable === 0 && /float32/.test(scalar.scalarType),
        "a scalar shows as a value with its type", scalar);
  // The error: coloured, its long line windowed with `...` so the underline stays under it.
  const err = cell("let %e");
  const lines = (err.errorText || "").split("\n");
  check(err.errorText !== null && err.errorColours > 0, "the error is shown in colour", err.errorColours);
  check(lines.some((l) => l.includes("...")), "the long source line is windowed with ...", lines);
  // (The message and the notes are prose, which may wrap: only the snippet is checked.)
  const snippet = lines.filter((l) => /^\d* *\|/.test(l));
  check(snippet.length >= 4 && snippet.every((l) => l.length <= 110), "no line of the snippet is wider than a cell",
        snippet);
  // Intact: the (4, 5) operand's label starts right under it.
  const src = lines.findIndex((l) => /^\d+ \|/.test(l) && l.includes("ones(shape=[4, 5]"));
  const column = src >= 0 ? lines[src].indexOf("ones(shape=[4, 5]") : -1;
  check(src >= 0 && /[-^]/.test((lines[src + 1] || "")[column] || ""), "the underline sits under the code it marks",
        lines.slice(Math.max(src, 0), src + 2));
  // The traceback the kernel sent ends with text (the Notebook itself adds one newline).
  check(err.tracebackEnd !== null && err.tracebackEnd.trim() !== "", "no blank lines after the error",
        err.tracebackEnd);

  await shotOfCell(page, "let %e", "e2e-error");

  // Completion: Tab after `nn.den`.
  await typeInNewCell(page, "nn.den");
  await page.keyboard.press("Tab");
  const completed = await until(page, () => {
    const cell = Jupyter.notebook.get_selected_cell();
    const options = [...document.querySelectorAll("div.completions select option")].map((o) => o.value);
    if (cell.get_text().startsWith("nn.dense")) return "inserted: " + cell.get_text();
    return options.includes("nn.dense") ? "offered: " + options.join(",") : null;
  }, undefined, 10000);
  check(completed !== null, "Tab completes nn.den to nn.dense", completed);
  await shot(page, "e2e-completion");
  await page.keyboard.press("Escape");

  // The call tooltip: Shift-Tab with the cursor inside `nn.dense(` after an argument.
  await typeInNewCell(page, "let %d = nn.dense(ones(shape=[1, 8], dtype=\"float32\"), ");
  await page.keyboard.down("Shift");
  await page.keyboard.press("Tab");
  await page.keyboard.up("Shift");
  const tip = await until(page, () => {
    const t = document.querySelector("#tooltip");
    return t && t.offsetParent !== null && /units/.test(t.textContent) ? t.textContent.slice(0, 300) : null;
  }, undefined, 10000);
  check(tip !== null, "Shift-Tab inside nn.dense( shows its signature and attributes", tip);
  await shot(page, "e2e-tooltip");
}

// A screenshot of the cell whose source starts with `start` (the page scrolls inside the
// Notebook's own container, so a full-page shot shows only the first screen).
async function shotOfCell(page, start, name) {
  const index = await page.evaluate((s) => Jupyter.notebook.get_cells().findIndex((c) => c.get_text().startsWith(s)),
                                    start);
  if (index < 0) return;
  const handle = await page.evaluateHandle((i) => Jupyter.notebook.get_cell(i).element[0], index);
  await handle.asElement().scrollIntoView();
  await handle.asElement().screenshot({path: path.join(artifacts, name + ".png")});
}

async function typeInNewCell(page, text) {
  await page.evaluate((t) => {
    const nb = Jupyter.notebook;
    nb.command_mode();
    const cell = nb.insert_cell_at_bottom("code");
    nb.select(nb.find_cell_index(cell));
    cell.set_text(t);
    nb.edit_mode();
    cell.code_mirror.focus();
    cell.code_mirror.setCursor(cell.code_mirror.lineCount(), 0);
    cell.code_mirror.execCommand("goDocEnd");
  }, text);
}

async function runUntrusted(page) {
  if (!(await openNotebook(page, "untrusted.ipynb"))) return;
  const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
  check(trusted === false, "the committed example opens untrusted", trusted);
  const count = await page.evaluate(() => Jupyter.notebook.ncells());
  const cells = [];
  for (let i = 0; i < count; ++i) {
    if (await page.evaluate((k) => Jupyter.notebook.get_cell(k).cell_type === "code", i))
      cells.push(await cellReport(page, i));
  }
  const viz = cells.find((c) => c.source.startsWith(":viz")) || {};
  check(viz.png > 0 && viz.svg === 0, "the :viz graph shows as PNG in an untrusted notebook", viz);
  const tensor = cells.find((c) => c.source.trim() === "%w1") || {};
  check(tensor.anyTable >= 1, "a tensor is still a table in an untrusted notebook", tensor.anyTable);
  await shot(page, "untrusted");
  await shotOfCell(page, ":viz", "untrusted-viz-png");
}

async function main() {
  const {browser, pid} = await startChromium(puppeteer, chromium, {width: 1280, height: 900});
  try {
    const page = await browser.newPage();
    page.on("dialog", (d) => d.accept());  // "leave this page?" when moving on
    page.on("pageerror", (e) => console.log("page error: " + e.message));
    await runTrusted(page);
    await runUntrusted(page);
  } catch (e) {
    checks.exception(e);
  } finally {
    await stopChromium(browser, pid);
  }
  checks.finish();
}

main();

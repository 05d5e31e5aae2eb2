// The extension in a real VS Code: code-server (VS Code's own workbench, served to a
// browser) with the packaged .vsix installed, driven in Debian's headless Chromium by
// puppeteer-core. Started by scripts/test-vscode-e2e.sh, which installs code-server and
// builds the .vsix:
//
//   node vscode_e2e.js CODE_SERVER_ENTRY VSIX RELAY ARTIFACT_DIR CHROMIUM
//
// It writes a workspace with a .relay file that has a type error, installs the .vsix into
// a private extensions folder, starts code-server on 127.0.0.1 (auth off, its own
// user-data folder, `relay.server.path` = RELAY), opens the file and checks what a user
// would see: the error's squiggle and its Problems entry, the inferred type in the hover
// of a `let`-bound variable, and `nn.softmax` among the completions after `nn.so`.
// Screenshots go to ARTIFACT_DIR. code-server and Chromium are started here and stopped by
// PID whatever happens, with every process they started (the extension host, `relay lsp`).
"use strict";

const child_process = require("child_process");
const fs = require("fs");
const net = require("net");
const os = require("os");
const path = require("path");
const puppeteer = require("puppeteer-core");
// Shared with the notebook's browser test.
const {Checks, until, startChromium, stopChromium} =
  require(path.join(__dirname, "..", "..", "..", "..", "tests", "support", "browser.js"));

const [entry, vsix, relay, artifacts, chromium] = process.argv.slice(2);
const checks = new Checks();
const check = checks.check.bind(checks);

// The file the checks read: `add` of (2, 3) and (4, 5) cannot broadcast (the error on line
// 4); `%y` is bound without a type annotation, so its hover type is inferred.
const MODEL = [
  '#[version = "0.0.5"]',
  "def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(4, 5), float32]) {",
  "  let %y = nn.relu(%x);",
  "  let %z = add(%y, %w);",
  "  %z",
  "}",
  "",
].join("\n");

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = server.address().port;
      server.close(() => resolve(port));
    });
  });
}

// Children of `pid`, from /proc (each process's stat names its parent).
function childrenOf(pid) {
  const out = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync("/proc/" + entry + "/stat", "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after it.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch (e) {
      // the process ended while being read
    }
  }
  return out;
}

function descendantsOf(pid) {
  const all = [];
  for (const child of childrenOf(pid)) all.push(child, ...descendantsOf(child));
  return all;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return false;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Stops `pid` and everything it started: the tree is read first (children are re-parented
// once their parent exits), then SIGTERM to the root, then SIGKILL to whatever is left.
async function stopTree(pid, name) {
  const tree = [pid, ...descendantsOf(pid)];
  try {
    process.kill(pid, "SIGTERM");
  } catch (e) {
    // already gone
  }
  for (let i = 0; i < 50 && tree.some(alive); ++i) await sleep(100);
  for (const p of tree.filter(alive)) {
    let what = "";
    try {
      what = fs.readFileSync("/proc/" + p + "/cmdline", "utf8").split("\0").join(" ").slice(0, 120);
    } catch (e) {
      // it exited meanwhile
    }
    console.log(name + ": pid " + p + " still running 5 s after SIGTERM, SIGKILL: " + what);
    try {
      process.kill(p, "SIGKILL");
    } catch (e) {
      // it exited meanwhile
    }
  }
}

async function waitHttp(url, proc, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error("code-server exited with " + proc.exitCode);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch (e) {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error("code-server did not answer at " + url);
}

async function shot(page, name) {
  await page.screenshot({path: path.join(artifacts, name + ".png")});
}

// The screen rectangle of the first occurrence of `text` on the first editor line that
// matches the regular expression `linePattern` (Monaco renders each line as spans of
// tokens, and inlay hints such as `: Tensor[...]` after a `let` variable are part of the
// line's text; the text is located inside the spans with a DOM Range).
async function textRect(page, linePattern, text) {
  return page.evaluate((linePattern, text) => {
    const lines = [...document.querySelectorAll(".monaco-editor .view-lines .view-line")]
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const re = new RegExp(linePattern);
    const line = lines.find((l) => re.test(l.textContent.replace(/\u00a0/g, " ")));
    if (!line) return null;
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent.replace(/\u00a0/g, " ").indexOf(text);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const r = range.getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2};
    }
    return null;
  }, linePattern, text);
}

async function runChecks(page, base, workspace) {
  await page.goto(base + "/?folder=" + encodeURIComponent(workspace), {waitUntil: "load", timeout: 60000});
  const explorer = await until(page, () => {
    const row = [...document.querySelectorAll(".explorer-folders-view .monaco-list-row")]
      .find((r) => r.textContent.includes("model.relay"));
    return row ? true : null;
  }, undefined, 90000);
  check(explorer === true, "the workbench loads and the explorer lists model.relay");
  if (explorer !== true) {
    await shot(page, "vscode-workbench");
    return;
  }
  await page.evaluate(() => {
    [...document.querySelectorAll(".explorer-folders-view .monaco-list-row")]
      .find((r) => r.textContent.includes("model.relay")).click();
  });
  const opened = await until(page, () => {
    const tab = document.querySelector(".tabs-container .tab.active");
    return tab && tab.textContent.includes("model.relay") &&
      document.querySelector(".monaco-editor .view-lines") ? true : null;
  }, undefined, 30000);
  check(opened === true, "model.relay opens in an editor");
  // The TextMate grammar: the dotted operator gets its own token colour.
  const colours = await until(page, () => {
    const spans = [...document.querySelectorAll(".monaco-editor .view-lines .view-line span span")];
    const op = spans.find((s) => s.textContent === "nn.relu");
    const kw = spans.find((s) => s.textContent === "let");
    return op && kw && op.className !== kw.className ? {op: op.className, kw: kw.className} : null;
  }, undefined, 15000);
  check(colours !== null, "the grammar colours the file (nn.relu and let differ)", colours);

  // The language server's diagnostic: a squiggle in the editor and an entry in Problems.
  const squiggle = await until(page, () =>
    document.querySelectorAll(".monaco-editor .squiggly-error").length || null, undefined, 60000);
  check(squiggle !== null, "the type error is underlined (squiggly-error)", squiggle);
  await shot(page, "vscode-squiggle");

  await page.keyboard.down("Control");
  await page.keyboard.down("Shift");
  await page.keyboard.press("KeyM");
  await page.keyboard.up("Shift");
  await page.keyboard.up("Control");
  const problem = await until(page, () => {
    const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")];
    const row = rows.find((r) => /incompatible broadcast/.test(r.textContent));
    return row ? row.textContent : null;
  }, undefined, 20000);
  check(problem !== null && /\[Ln 4, Col 12\]/.test(problem), "Problems lists the error at line 4, column 12",
        problem);
  await shot(page, "vscode-problems");

  // Hover over `%y` where it is bound (line 3, away from the error's range, so the hover
  // holds no diagnostic that also names the type): the type the checker inferred for it,
  // from the server's hover (Monaco's markdown part; the error's part is `.marker`).
  const at = await textRect(page, "^\\s*let %y", "%y");
  check(at !== null, "the editor shows the line that binds %y", at);
  if (at) {
    const hoverText = () => {
      const parts = [...document.querySelectorAll(".monaco-hover .markdown-hover")]
        .filter((e) => e.offsetParent !== null);
      const text = parts.map((p) => p.textContent).join(" | ");
      return /%y\s*:\s*Tensor\[\(2, 3\), float32\]/.test(text) ? text : null;
    };
    await page.mouse.move(at.x - 40, at.y + 60);
    await page.mouse.move(at.x, at.y, {steps: 5});
    let hover = await until(page, hoverText, undefined, 10000);
    if (hover === null) {
      // A mouse hover the workbench missed (a panel opening under the pointer once made it
      // so in CI): the same hover from the keyboard, the cursor on %y, Ctrl+K Ctrl+I.
      await page.mouse.click(at.x, at.y);
      await page.keyboard.down("Control");
      await page.keyboard.press("KeyK");
      await page.keyboard.press("KeyI");
      await page.keyboard.up("Control");
      hover = await until(page, hoverText, undefined, 15000);
    }
    check(hover !== null, "the hover of %y shows its inferred type Tensor[(2, 3), float32]", hover);
    await shot(page, "vscode-hover");
  }

  // Completion: a new line typed before the closing `}`, then `nn.so`.
  const close = await textRect(page, "^\\s*%z\\s*$", "%z");
  if (close) {
    await page.mouse.move(10, 10);
    await page.mouse.click(close.x, close.y);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("nn.so", {delay: 50});
    let suggestion = await until(page, () => {
      const rows = [...document.querySelectorAll(".suggest-widget .monaco-list-row")];
      const labels = rows.map((r) => r.getAttribute("aria-label") || r.textContent);
      return labels.some((l) => /nn\.softmax/.test(l)) ? labels.join(" | ") : null;
    }, undefined, 10000);
    if (suggestion === null) {
      // Not opened while typing (a slow server): ask for it as Ctrl+Space does.
      await page.keyboard.down("Control");
      await page.keyboard.press("Space");
      await page.keyboard.up("Control");
      suggestion = await until(page, () => {
        const rows = [...document.querySelectorAll(".suggest-widget .monaco-list-row")];
        const labels = rows.map((r) => r.getAttribute("aria-label") || r.textContent);
        return labels.some((l) => /nn\.softmax/.test(l)) ? labels.join(" | ") : null;
      }, undefined, 20000);
    }
    check(suggestion !== null, "completion after nn.so offers nn.softmax", suggestion);
    await shot(page, "vscode-completion");
    await page.keyboard.press("Escape");
  } else {
    check(false, "the editor shows the line with %z");
  }
}

async function main() {
  fs.mkdirSync(artifacts, {recursive: true});
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "relay-vscode-e2e-"));
  const workspace = path.join(root, "workspace");
  const userData = path.join(root, "user-data");
  const extensions = path.join(root, "extensions");
  for (const d of [workspace, path.join(userData, "User"), extensions]) fs.mkdirSync(d, {recursive: true});
  fs.writeFileSync(path.join(workspace, "model.relay"), MODEL);
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({
    "relay.server.path": relay,
    "security.workspace.trust.enabled": false,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "editor.hover.delay": 200,
    "editor.quickSuggestions": {other: "on", comments: "off", strings: "off"},
  }, null, 2));
  // code-server's own files (config, logs) stay in `root`, not in the user's home.
  const env = Object.assign({}, process.env, {
    HOME: path.join(root, "home"), XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_DATA_HOME: path.join(root, "data"),
  });
  const common = ["--config", path.join(root, "config.yaml"), "--user-data-dir", userData,
                  "--extensions-dir", extensions];

  const install = child_process.spawnSync(process.execPath, [entry, ...common, "--install-extension", vsix],
                                          {env, encoding: "utf8", timeout: 60000});
  check(install.status === 0 && /successfully installed/.test(install.stdout),
        "code-server --install-extension installs the .vsix", (install.stdout || "") + (install.stderr || ""));
  if (install.status !== 0) {
    fs.rmSync(root, {recursive: true, force: true});
    return;
  }

  const port = await freePort();
  const base = "http://127.0.0.1:" + port;
  const log = fs.openSync(path.join(artifacts, "code-server.log"), "w");
  const server = child_process.spawn(process.execPath, [
    entry, ...common, "--bind-addr", "127.0.0.1:" + port, "--auth", "none", "--disable-telemetry",
    "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", workspace,
  ], {env, stdio: ["ignore", log, log]});
  console.log("code-server pid " + server.pid + " at " + base);
  let chrome = null;
  try {
    await waitHttp(base + "/healthz", server, 60000);
    chrome = await startChromium(puppeteer, chromium, {width: 1400, height: 900});
    const page = await chrome.browser.newPage();
    page.on("pageerror", (e) => console.log("page error: " + e.message));
    await runChecks(page, base, workspace);
  } catch (e) {
    checks.exception(e);
  } finally {
    if (chrome) await stopChromium(chrome.browser, chrome.pid);
    await stopTree(server.pid, "code-server");
    fs.closeSync(log);
    fs.rmSync(root, {recursive: true, force: true});
  }
}

main().catch((e) => checks.exception(e)).then(() => checks.finish());

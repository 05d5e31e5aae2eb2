// What the end-to-end tests that drive a real front end in Debian's headless Chromium
// through puppeteer-core share: the notebook's (tests/kernel/browser/notebook_e2e.js) and
// the VS Code extension's (editors/vscode/test/e2e/vscode_e2e.js). Each test installs its
// own puppeteer-core and passes it in, so this file needs no node_modules of its own.
"use strict";

// Named checks: each prints `ok` or `FAIL` with what it saw; the failures are counted.
class Checks {
  constructor() {
    this.failures = [];
  }

  check(ok, what, detail) {
    if (ok) {
      console.log("ok   " + what);
    } else {
      this.failures.push(what);
      console.log("FAIL " + what + (detail === undefined ? "" : ": " + JSON.stringify(detail)));
    }
    return ok;
  }

  // An exception that ended the checks early counts as a failure.
  exception(e) {
    this.check(false, "exception: " + (e && e.stack ? e.stack : e));
  }

  // Prints the verdict and exits: 0 when every check passed.
  finish() {
    console.log(this.failures.length ? this.failures.length + " checks failed" : "all checks passed");
    process.exit(this.failures.length ? 1 : 0);
  }
}

// Waits until `fn` (run in the page with `arg`) returns something truthy; returns it (as
// JSON), or null at the deadline, so that a check can show what it was waiting for.
async function until(page, fn, arg, timeoutMs) {
  try {
    const handle = await page.waitForFunction(fn, {timeout: timeoutMs, polling: 100}, arg);
    return await handle.jsonValue();
  } catch (e) {
    return null;
  }
}

// Starts Chromium headless (no sandbox: the tests may run as root). Returns the browser
// and its PID, which stopChromium needs.
async function startChromium(puppeteer, executablePath, viewport) {
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    defaultViewport: viewport,
  });
  return {browser, pid: browser.process() ? browser.process().pid : null};
}

// Closes the browser (5 s at most), then SIGKILLs its PID in case closing did not end it.
async function stopChromium(browser, pid) {
  try {
    await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
  } catch (e) {
    // closing failed: the kill below ends it
  }
  if (pid) {
    try {
      process.kill(pid, "SIGKILL");  // already gone after a clean close
    } catch (e) {
      // ESRCH: it exited
    }
  }
}

module.exports = {Checks, until, startChromium, stopChromium};

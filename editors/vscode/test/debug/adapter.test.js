// Drives `relay dap` (the binary in $RELAY_BINARY) with VS Code's own DAP test client
// (@vscode/debugadapter-testsupport) on test/debug/fixtures/double.relay: line breakpoints
// on a binding and on a callee's tail expression, the stack, scopes and tensor variables,
// stepping over bindings, and the end of the run (`exited`, then `terminated`).
//
//   RELAY_BINARY=$PWD/../../build/release/relay npm run test:debug   (in editors/vscode)
//
// The fixture's line numbers are used below; keep them in step with the file.
'use strict';

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const RELAY = process.env.RELAY_BINARY;
const PROGRAM = path.join(__dirname, 'fixtures', 'double.relay');
const LINE = {
  doubleTail: 4, // add(%v, %v)            in @double
  letY: 8, //       let %y = @double(%x);  in @main
  bind0: 9, //      %0 = multiply(%y, 2f);
  tail: 10, //      %0
};
const SCOPE_NAMES = ['Arguments', 'Locals', 'Captured', 'Globals'];

/** A float32 .npy file (format 1.0), so that the inputs are known numbers. */
function writeNpy(file, values) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${values.length},), }`;
  // magic (6) + version (2) + header length (2) + header, padded to 64 bytes with a newline.
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const prefix = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(prefix, 0);
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(new Float32Array(values).buffer);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'), data]));
}

describe('relay dap', function () {
  let dc;
  let tmp;
  let launchArgs;

  before(function () {
    assert.ok(RELAY, 'set RELAY_BINARY to the relay binary (e.g. build/release/relay)');
    assert.ok(fs.existsSync(RELAY), `RELAY_BINARY=${RELAY} does not exist`);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-dap-test-'));
    const x = path.join(tmp, 'x.npy');
    writeNpy(x, [1, 2, 3]);
    launchArgs = { program: PROGRAM, entry: 'main', args: { x } };
  });

  after(function () {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  beforeEach(async function () {
    // DebugClient spawns `<runtime> <executable>`: here `relay dap`.
    dc = new DebugClient(RELAY, 'dap', 'relay', {}, /*enableStderr=*/ true);
    dc.defaultTimeout = 10000;
    await dc.start();
  });

  afterEach(async function () {
    // stop() sends `disconnect` and waits for its answer, forever if the adapter has died;
    // give it two seconds, then kill the adapter (stopAdapter is idempotent).
    await Promise.race([dc.stop(), new Promise((resolve) => setTimeout(resolve, 2000))]);
    dc.stopAdapter();
  });

  async function threadId() {
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(threads.length > 0, 'no threads');
    return threads[0].id;
  }

  async function stack() {
    return (await dc.stackTraceRequest({ threadId: await threadId() })).body.stackFrames;
  }

  /** {name: Variable} of one scope of a frame. */
  async function scopeVariables(frameId, scopeName) {
    const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
    for (const s of scopes) assert.ok(SCOPE_NAMES.includes(s.name), `unexpected scope ${s.name}`);
    const scope = scopes.find((s) => s.name === scopeName);
    assert.ok(scope, `no ${scopeName} scope; got ${scopes.map((s) => s.name).join(', ')}`);
    const vars = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
    return Object.fromEntries(vars.map((v) => [v.name, v]));
  }

  /** A Relay variable by name, whether the adapter shows it as `%y` or `y`. */
  function variable(vars, name) {
    const v = vars[`%${name}`] ?? vars[name];
    assert.ok(v, `no variable %${name}; got ${Object.keys(vars).join(', ')}`);
    return v;
  }

  /** `next` and the `stopped` event it causes; returns the new top frame. */
  async function stepOver() {
    const [, stopped] = await Promise.all([dc.nextRequest({ threadId: await threadId() }), dc.waitForEvent('stopped')]);
    assert.strictEqual(stopped.body.reason, 'step');
    return (await stack())[0];
  }

  /** Continues and waits for `exited` (status 0) followed by `terminated`. */
  async function continueToEnd() {
    const order = [];
    const exited = dc.waitForEvent('exited').then((e) => (order.push('exited'), e));
    const terminated = dc.waitForEvent('terminated').then((e) => (order.push('terminated'), e));
    await dc.continueRequest({ threadId: await threadId() });
    const [e] = await Promise.all([exited, terminated]);
    assert.strictEqual(e.body.exitCode, 0);
    assert.deepStrictEqual(order, ['exited', 'terminated']);
  }

  it('stops at a breakpoint on a let binding, in @main, with its arguments', async function () {
    await dc.hitBreakpoint(launchArgs, { path: PROGRAM, line: LINE.letY });
    const frames = await stack();
    assert.strictEqual(frames[0].name, '@main');
    assert.strictEqual(frames[0].line, LINE.letY);
    const x = variable(await scopeVariables(frames[0].id, 'Arguments'), 'x');
    assert.strictEqual(x.type, 'Tensor[(3), float32]');
    assert.strictEqual(x.value, '[1. 2. 3.]');
    await continueToEnd();
  });

  it('steps over bindings to the tail expression and shows each new value', async function () {
    await dc.hitBreakpoint(launchArgs, { path: PROGRAM, line: LINE.letY });
    let frame = await stepOver();
    assert.strictEqual(frame.line, LINE.bind0);
    const y = variable(await scopeVariables(frame.id, 'Locals'), 'y');
    assert.strictEqual(y.type, 'Tensor[(3), float32]');
    assert.strictEqual(y.value, '[2. 4. 6.]');
    frame = await stepOver();
    assert.strictEqual(frame.line, LINE.tail);
    assert.strictEqual(variable(await scopeVariables(frame.id, 'Locals'), '0').value, '[ 4.  8. 12.]');
    await continueToEnd();
  });

  it("stops at a breakpoint on a callee's tail expression, under its caller", async function () {
    await dc.hitBreakpoint(launchArgs, { path: PROGRAM, line: LINE.doubleTail });
    const frames = await stack();
    assert.deepStrictEqual(frames.slice(0, 2).map((f) => [f.name, f.line]), [
      ['@double', LINE.doubleTail],
      ['@main', LINE.letY],
    ]);
    assert.strictEqual(variable(await scopeVariables(frames[0].id, 'Arguments'), 'v').value, '[1. 2. 3.]');
    await continueToEnd();
  });

  it('stops on entry in @main when asked', async function () {
    const stopped = dc.waitForEvent('stopped');
    await Promise.all([dc.configurationSequence(), dc.launch({ ...launchArgs, stopOnEntry: true })]);
    assert.strictEqual((await stopped).body.reason, 'entry');
    assert.strictEqual((await stack())[0].name, '@main');
    await continueToEnd();
  });

  it('runs to the end on random inputs without breakpoints', async function () {
    const exited = dc.waitForEvent('exited');
    const terminated = dc.waitForEvent('terminated');
    await Promise.all([dc.configurationSequence(), dc.launch({ program: PROGRAM, randomInputs: 0 })]);
    assert.strictEqual((await exited).body.exitCode, 0);
    await terminated;
  });
});

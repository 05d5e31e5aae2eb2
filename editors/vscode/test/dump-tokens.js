#!/usr/bin/env node
// Prints the tokens and scopes the Relay grammar gives each line of a file; a debugging aid
// for writing grammar tests: `node test/dump-tokens.js FILE.relay`.
'use strict';
const fs = require('fs');
const path = require('path');
const tm = require('vscode-textmate');
const onig = require('vscode-oniguruma');

const grammars = {
  'source.relay': path.join(__dirname, '..', 'syntaxes', 'relay.tmLanguage.json'),
  'source.json': path.join(__dirname, 'grammar', 'json.tmLanguage.json'),
};
const wasm = fs.readFileSync(require.resolve('vscode-oniguruma').replace(/main\.js$/, 'onig.wasm')).buffer;
const registry = new tm.Registry({
  onigLib: onig.loadWASM(wasm).then(() => ({
    createOnigScanner: (p) => new onig.OnigScanner(p),
    createOnigString: (s) => new onig.OnigString(s),
  })),
  loadGrammar: async (scope) =>
    grammars[scope] ? tm.parseRawGrammar(fs.readFileSync(grammars[scope], 'utf8'), grammars[scope]) : null,
});

registry.loadGrammar('source.relay').then((grammar) => {
  let stack = tm.INITIAL;
  fs.readFileSync(process.argv[2], 'utf8').split(/\r?\n/).forEach((line, n) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    console.log(`${n + 1}: ${line}`);
    for (const t of r.tokens) {
      const text = line.substring(t.startIndex, t.endIndex);
      if (text.trim() === '') continue;
      console.log(`    ${JSON.stringify(text).padEnd(28)} ${t.scopes.slice(1).join(' ')}`);
    }
  });
});

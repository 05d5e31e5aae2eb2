// The Relay extension: starts the language server (`relay lsp`), restarts it on demand or
// when its settings change, and shows the typed IR of the current file. The debugger
// (`relay dap`) is registered from debug.ts.
import * as childProcess from 'child_process';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  ErrorCodes,
  LanguageClient,
  LanguageClientOptions,
  ResponseError,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { registerDebugger } from './debug';
import { configuredRelayPath, resolveExecutable } from './executable';

const LANGUAGE_ID = 'relay';
const TYPED_IR_SCHEME = 'relay-typed-ir';

/** The custom request behind "Relay: Show Typed IR". */
interface TypedIRParams {
  textDocument: { uri: string };
}
interface TypedIRResult {
  text: string;
}

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel | undefined;

/** Read-only documents holding typed IR, keyed by their `relay-typed-ir:` URI. */
class TypedIRProvider implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface ServerSettings {
  command: string; // as configured
  resolved: string | undefined; // an existing executable, or undefined when not found
  extraArgs: string[];
}

function readSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration('relay');
  const command = configuredRelayPath();
  const extraArgs = config.get<string[]>('server.extraArgs') ?? [];
  return { command, resolved: resolveExecutable(command), extraArgs };
}

async function reportMissingBinary(settings: ServerSettings, detail?: string): Promise<void> {
  const message =
    `Relay: cannot start the language server: \`${settings.command}\` was not found` +
    (detail ? ` (${detail})` : '') +
    '. Build the toolchain (scripts/setup.sh) and set "relay.server.path" to the `relay` binary.';
  const choice = await vscode.window.showErrorMessage(message, 'Open Settings', 'Show Log');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'relay.server.path');
  } else if (choice === 'Show Log') {
    outputChannel?.show(true);
  }
}

async function startClient(): Promise<void> {
  const settings = readSettings();
  if (!settings.resolved) {
    outputChannel?.appendLine(`[relay] \`${settings.command}\` not found; the language server is not running.`);
    void reportMissingBinary(settings);
    return;
  }
  const executable = {
    command: settings.resolved,
    args: ['lsp', ...settings.extraArgs],
    transport: TransportKind.stdio,
  };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: LANGUAGE_ID },
      { scheme: 'untitled', language: LANGUAGE_ID },
    ],
    outputChannel,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{relay,rly}'),
    },
  };
  // The client reads `relay.trace.server` itself (the id below is the settings prefix).
  const newClient = new LanguageClient('relay', 'Relay Language Server', serverOptions, clientOptions);
  client = newClient;
  try {
    await newClient.start();
  } catch (err) {
    client = undefined;
    const detail = err instanceof Error ? err.message : String(err);
    outputChannel?.appendLine(`[relay] failed to start \`${settings.resolved} lsp\`: ${detail}`);
    if (/ENOENT|EACCES/.test(detail)) {
      void reportMissingBinary(settings, detail);
    } else {
      const choice = await vscode.window.showErrorMessage(
        `Relay: the language server failed to start: ${detail}`,
        'Show Log',
        'Open Settings',
      );
      if (choice === 'Show Log') outputChannel?.show(true);
      if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'relay.server');
      }
    }
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old && old.state !== State.Stopped) {
    try {
      await old.stop();
    } catch (err) {
      outputChannel?.appendLine(`[relay] error while stopping the server: ${String(err)}`);
    }
  }
}

async function restartServer(): Promise<void> {
  await stopClient();
  await startClient();
  if (client?.state === State.Running) {
    vscode.window.setStatusBarMessage('Relay: language server restarted', 3000);
  }
}

/** The typed-IR URI for a document: `relay-typed-ir:/<name>.typed.relay?<source uri>`. */
function typedIRUri(source: vscode.Uri): vscode.Uri {
  const base = path.basename(source.path || 'untitled').replace(/\.(relay|rly)$/, '');
  return vscode.Uri.from({
    scheme: TYPED_IR_SCHEME,
    path: `/${base}.typed.relay`,
    query: encodeURIComponent(source.toString()),
  });
}

/** Runs `relay check --emit=types` on the document (the file, or stdin when it has unsaved
 *  changes) and returns its stdout. */
function typedIRFromCli(document: vscode.TextDocument): Promise<string> {
  const settings = readSettings();
  if (!settings.resolved) {
    void reportMissingBinary(settings);
    return Promise.reject(new Error(`\`${settings.command}\` was not found`));
  }
  const useFile = document.uri.scheme === 'file' && !document.isDirty;
  const args = ['check', '--emit=types', '--color=never', useFile ? document.uri.fsPath : '-'];
  return new Promise((resolve, reject) => {
    const child = childProcess.execFile(
      settings.resolved as string,
      args,
      { maxBuffer: 64 * 1024 * 1024, cwd: useFile ? path.dirname(document.uri.fsPath) : undefined },
      (error, stdout, stderr) => {
        // Exit status 1 means "errors found": stdout may still hold the types of the globals
        // that did check, and stderr says what went wrong.
        const status = error && typeof (error as { code?: unknown }).code === 'number'
          ? (error as { code: number }).code
          : error ? -1 : 0;
        if (status === 0 || (status === 1 && stdout.trim() !== '')) {
          if (status === 1) {
            outputChannel?.appendLine(stderr);
            void vscode.window.showWarningMessage(
              'Relay: the file has errors; the typed IR shows the globals that type-checked.',
            );
          }
          resolve(stdout);
        } else {
          const first = (stderr || (error ? error.message : '')).trim().split('\n').slice(0, 3).join(' ');
          outputChannel?.appendLine(stderr);
          reject(new Error(first || `\`relay check\` exited with status ${status}`));
        }
      },
    );
    if (!useFile) {
      child.stdin?.end(document.getText());
    }
  });
}

async function showTypedIR(provider: TypedIRProvider): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const document = editor?.document;
  if (!document || document.languageId !== LANGUAGE_ID) {
    void vscode.window.showInformationMessage('Relay: open a .relay file to show its typed IR.');
    return;
  }
  let text: string | undefined;
  try {
    if (client && client.state === State.Running) {
      try {
        const result = await client.sendRequest<TypedIRResult>('relay/typedIR', {
          textDocument: { uri: document.uri.toString() },
        } satisfies TypedIRParams);
        text = result?.text ?? '';
      } catch (err) {
        // Older servers do not implement the request: fall back to the command line.
        if (!(err instanceof ResponseError && err.code === ErrorCodes.MethodNotFound)) throw err;
      }
    }
    if (text === undefined) {
      text = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Relay: type-checking' },
        () => typedIRFromCli(document),
      );
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(`Relay: cannot show the typed IR: ${message}`);
    return;
  }
  const uri = typedIRUri(document.uri);
  provider.set(uri, text);
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== LANGUAGE_ID) {
    doc = await vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
  }
  await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: true,
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  outputChannel = vscode.window.createOutputChannel('Relay Language Server');
  const provider = new TypedIRProvider();
  context.subscriptions.push(
    outputChannel,
    provider,
    vscode.workspace.registerTextDocumentContentProvider(TYPED_IR_SCHEME, provider),
    vscode.commands.registerCommand('relay.restartServer', () => restartServer()),
    vscode.commands.registerCommand('relay.showTypedIR', () => showTypedIR(provider)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('relay.server')) void restartServer();
    }),
  );
  registerDebugger(context);
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}

// The `relay` debugger: launch configurations (defaults for F5 without a launch.json, one
// dynamic configuration per function of the current file) and the adapter itself, which is
// `relay dap` speaking the Debug Adapter Protocol on stdin/stdout.
import * as path from 'path';
import * as vscode from 'vscode';
import { configuredRelayPath, resolveExecutable } from './executable';

const DEBUG_TYPE = 'relay';
const LANGUAGE_ID = 'relay';

/** The launch attributes package.json declares (`contributes.debuggers`). */
interface RelayLaunchConfiguration extends vscode.DebugConfiguration {
  program?: string;
  entry?: string;
  args?: Record<string, string>;
  randomInputs?: number;
  stopOnEntry?: boolean;
  checkNumerics?: boolean;
  maxDepth?: number;
  relayPath?: string;
}

function activeRelayDocument(): vscode.TextDocument | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.languageId === LANGUAGE_ID ? doc : undefined;
}

/** The globals a file defines (`def @name`), `main` first: what the dynamic
 *  configurations offer. A scan of the text; a file that does not parse still gets some. */
function definedFunctions(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/^\s*def\s+@([A-Za-z_][\w.]*)/gm)) names.add(m[1]);
  const list = [...names];
  return list.includes('main') ? ['main', ...list.filter((n) => n !== 'main')] : list;
}

function launchFor(program: string, entry: string, name?: string): RelayLaunchConfiguration {
  return {
    type: DEBUG_TYPE,
    request: 'launch',
    name: name ?? `Debug @${entry}`,
    program,
    entry,
    randomInputs: 0,
  };
}

/** A path from the configuration: absolute, or relative to the workspace folder (to the
 *  program's directory when there is none). */
function absolutize(p: string, base: string): string {
  return path.isAbsolute(p) ? p : path.resolve(base, p);
}

/** "Select and Start Debugging" (and the Run view's list): one entry per function of the
 *  current file. */
class RelayDynamicConfigurations implements vscode.DebugConfigurationProvider {
  provideDebugConfigurations(): vscode.ProviderResult<vscode.DebugConfiguration[]> {
    const doc = activeRelayDocument();
    if (!doc || doc.isUntitled) return [];
    const base = path.basename(doc.uri.fsPath);
    return definedFunctions(doc.getText()).map((entry) =>
      launchFor(doc.uri.fsPath, entry, `Debug @${entry} (${base})`),
    );
  }
}

class RelayConfigurationProvider implements vscode.DebugConfigurationProvider {
  /** What a new launch.json starts with. */
  provideDebugConfigurations(): vscode.ProviderResult<vscode.DebugConfiguration[]> {
    return [launchFor('${file}', 'main')];
  }

  /** Fills in what is missing before variables such as ${file} are substituted. */
  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: RelayLaunchConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    if (!config.type && !config.request && !config.name) {
      // F5 without a launch.json: debug @main of the current file.
      const doc = activeRelayDocument();
      if (!doc) {
        void vscode.window.showInformationMessage('Relay: open a .relay file to debug it.');
        return undefined; // abort the launch
      }
      config = launchFor('${file}', 'main');
    }
    config.type = DEBUG_TYPE;
    config.request = config.request ?? 'launch';
    config.name = config.name ?? 'Debug @main';
    config.program = config.program ?? '${file}';
    if (config.program === '${file}' && activeRelayDocument()?.isUntitled) {
      void vscode.window.showErrorMessage('Relay: save the file before debugging it.');
      return undefined;
    }
    config.entry = config.entry ?? 'main';
    // Without inputs from files, parameters get seeded random tensors, so any function runs.
    const hasArgs = config.args !== undefined && Object.keys(config.args).length > 0;
    if (!hasArgs && config.randomInputs === undefined) config.randomInputs = 0;
    return config;
  }

  /** Makes paths absolute once ${workspaceFolder} and the like have been substituted. */
  resolveDebugConfigurationWithSubstitutedVariables(
    folder: vscode.WorkspaceFolder | undefined,
    config: RelayLaunchConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    if (!config.program) {
      void vscode.window.showErrorMessage('Relay: the launch configuration has no `program`.');
      return undefined;
    }
    const base = folder?.uri.fsPath ?? path.dirname(absolutize(config.program, process.cwd()));
    config.program = absolutize(config.program, base);
    if (config.args) {
      const args: Record<string, string> = {};
      for (const [name, file] of Object.entries(config.args)) args[name] = absolutize(file, base);
      config.args = args;
    }
    return config;
  }
}

/** Runs `<relay> dap` for each debug session. */
class RelayAdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    const config = session.configuration as RelayLaunchConfiguration;
    const folder = session.workspaceFolder?.uri.fsPath;
    const command = config.relayPath?.trim() || configuredRelayPath();
    const resolved = resolveExecutable(command, folder);
    if (!resolved) {
      // Thrown errors are shown by VS Code as the reason the session did not start.
      throw new Error(
        `Relay: cannot start the debugger: \`${command}\` was not found. ` +
          'Set "relay.server.path" (or "relayPath" in the launch configuration) to the `relay` binary.',
      );
    }
    const cwd = folder ?? (config.program ? path.dirname(config.program) : undefined);
    return new vscode.DebugAdapterExecutable(resolved, ['dap'], cwd ? { cwd } : undefined);
  }
}

export function registerDebugger(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new RelayConfigurationProvider()),
    vscode.debug.registerDebugConfigurationProvider(
      DEBUG_TYPE,
      new RelayDynamicConfigurations(),
      vscode.DebugConfigurationProviderTriggerKind.Dynamic,
    ),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new RelayAdapterFactory()),
  );
}

// Finding the `relay` executable, shared by the language client (extension.ts) and the
// debugger (debug.ts) so that both honour `relay.server.path` the same way.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

/** The configured `relay` command (`relay.server.path`, default `relay`). */
export function configuredRelayPath(): string {
  const config = vscode.workspace.getConfiguration('relay');
  return (config.get<string>('server.path') || 'relay').trim() || 'relay';
}

/** Resolves a command: an absolute path, a path relative to `base` (by default the first
 *  workspace folder), or a bare name looked up on PATH. Undefined when nothing is there. */
export function resolveExecutable(command: string, base?: string): string | undefined {
  const expanded = command.startsWith('~') ? path.join(process.env.HOME ?? '', command.slice(1)) : command;
  const isFile = (p: string): boolean => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const extensions =
    process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const withExtensions = (p: string): string | undefined =>
    extensions.map((e) => p + e).find((candidate) => isFile(candidate));

  if (path.isAbsolute(expanded)) return withExtensions(expanded);
  if (expanded.includes('/') || expanded.includes('\\')) {
    const folder = base ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return withExtensions(path.resolve(folder ?? process.cwd(), expanded));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const found = withExtensions(path.join(dir, expanded));
    if (found) return found;
  }
  return undefined;
}

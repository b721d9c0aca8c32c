// VS Code entry point: starts `skillgraph lsp` and keeps it fed with settings.
//
// All behaviour lives in the server; this file only wires VS Code to it. The decisions worth
// testing (where the binary is, which files go to it, how settings map) live in modules that do
// not import `vscode`; test/extension.test.ts runs this file itself against a fake `vscode`.

import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import { configurationForSection, ServerConfig, ServerSettingKey, toServerConfig } from './config';
import { documentSelector } from './selectors';
import { missingServerMessage, resolveServerPath } from './serverPath';

const SECTION = 'skillgraph';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
// Serialises start/stop so that a restart command fired twice, or a settings change during a
// restart, cannot leave two servers running.
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('skillgraph');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('skillgraph.restartServer', () => queue(restart)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // The binary is fixed when the process starts; the other settings reach the running server
      // through the client's configuration middleware below.
      if (event.affectsConfiguration(`${SECTION}.server.path`)) {
        void queue(restart);
      }
    }),
  );
  return queue(start);
}

export function deactivate(): Promise<void> {
  return queue(stop);
}

function queue(step: () => Promise<void>): Promise<void> {
  pending = pending.then(step, step);
  return pending;
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      // dispose, not just stop: this client is never started again (a restart builds a new one
      // with a freshly resolved binary). Our own output channel survives it.
      await running.dispose();
    } catch (error) {
      output.appendLine(`Stopping the server failed: ${String(error)}`);
    }
  }
}

async function start(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const resolution = resolveServerPath({
    configured: vscode.workspace.getConfiguration(SECTION).get<string>('server.path'),
    env: process.env,
    platform: process.platform,
    homeDir: os.homedir(),
    baseDir: folder,
  });
  if (!resolution.found) {
    output.appendLine(`Looked for the server at:\n  ${resolution.tried.join('\n  ') || '(nowhere)'}`);
    void showMissingServer(missingServerMessage(resolution));
    return;
  }
  output.appendLine(`Starting ${resolution.path} lsp (found via ${resolution.source})`);

  // No `transport` on purpose: with `TransportKind.stdio` the client would append `--stdio`.
  const serverOptions: ServerOptions = {
    command: resolution.path,
    args: ['lsp'],
    options: folder ? { cwd: folder } : undefined,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel: output,
    initializationOptions: serverConfig(undefined),
    // Makes the client send `workspace/didChangeConfiguration` after start and on every change of
    // `skillgraph.*`; the middleware replaces its payload with the server's shape.
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        didChangeConfiguration: async () => {
          if (!newClient.isRunning()) return;
          try {
            await newClient.sendNotification(DidChangeConfigurationNotification.type, {
              settings: { [SECTION]: serverConfig(undefined) },
            });
          } catch (error) {
            // A change of `server.path` also lands here while that change is stopping this very
            // client; the next server gets the settings at initialize, so only a failure towards
            // a server that is still running is worth reporting.
            if (newClient.isRunning()) throw error;
          }
        },
        configuration: async (params, token, next) => {
          const defaults = await next(params, token);
          if (!Array.isArray(defaults)) return defaults; // an error: pass it on untouched
          return params.items.map((item, index) => {
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            const answer = configurationForSection(serverConfig(scope), item.section);
            return answer.handled ? answer.value : defaults[index];
          });
        },
      },
    },
  };

  // The client id `skillgraph` also makes the library honour `skillgraph.trace.server`.
  const newClient = new LanguageClient(SECTION, 'skillgraph', serverOptions, clientOptions);
  client = newClient;
  try {
    await newClient.start();
  } catch (error) {
    client = undefined;
    output.appendLine(`The server failed to start: ${String(error)}`);
    void showMissingServer(
      `skillgraph: the language server at ${resolution.path} failed to start (${String(error)}). ` +
        'Check `skillgraph.server.path`, or reinstall it with `cargo install --path server` from a clone of the skillgraph repository.',
    );
  }
}

/** The server configuration for a resource (a workspace folder's settings), or the window's. */
function serverConfig(scope: vscode.Uri | undefined): ServerConfig {
  const settings = vscode.workspace.getConfiguration(SECTION, scope);
  const folder = (scope && vscode.workspace.getWorkspaceFolder(scope)) ?? vscode.workspace.workspaceFolders?.[0];
  const { config, problems } = toServerConfig((key: ServerSettingKey) => userValue(settings, key), {
    baseDir: folder?.uri.fsPath,
    homeDir: os.homedir(),
    platform: process.platform,
  });
  for (const problem of problems) output.appendLine(problem);
  return config;
}

/**
 * The value the user set at any level, or `undefined` when only the default applies, so that
 * `skillgraph.toml` and the server's own defaults are not overridden by ours.
 */
function userValue(settings: vscode.WorkspaceConfiguration, key: ServerSettingKey): unknown {
  const seen = settings.inspect(key);
  const set =
    seen !== undefined &&
    (seen.globalValue !== undefined || seen.workspaceValue !== undefined || seen.workspaceFolderValue !== undefined);
  // `get` rather than the most specific `inspect` value: for `rules` it merges the objects of
  // every level, as VS Code users expect of object settings.
  return set ? settings.get(key) : undefined;
}

async function showMissingServer(message: string): Promise<void> {
  const openSettings = 'Open Settings';
  const retry = 'Retry';
  const choice = await vscode.window.showErrorMessage(message, openSettings, retry);
  if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
  } else if (choice === retry) {
    await queue(restart);
  }
}

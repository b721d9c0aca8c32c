// VS Code entry point: starts `skillgraph lsp` and keeps it fed with settings.
//
// All behaviour lives in the server; this file only wires VS Code to it. The decisions worth
// testing (where the binary is, which files go to it, how settings map) live in modules that do
// not import `vscode`; test/extension.test.ts runs this file itself against a fake `vscode`.

import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { configurationForSection, ServerConfig, ServerSettingKey, toServerConfig } from './config';
import {
  badGraphAnswer,
  ORDERING_GRAPH_SERVER_COMMAND,
  orderingGraphArgument,
  orderingGraphMarkdown,
  SHOW_ORDERING_GRAPH_COMMAND,
} from './orderingGraph';
import { documentSelector } from './selectors';
import { bundledServerPath, missingServerMessage, resolveServerPath } from './serverPath';
import { afterProgress, RESTART_COMMAND, ServerState, SHOW_OUTPUT_COMMAND, statusView, WorkDoneProgress } from './status';

const SECTION = 'skillgraph';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
let serverState: ServerState = { kind: 'starting' };
let extensionDir: string;
// Serialises start/stop so that a restart command fired twice, or a settings change during a
// restart, cannot leave two servers running.
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('skillgraph');
  extensionDir = context.extensionPath;
  statusItem = vscode.window.createStatusBarItem('skillgraph.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'skillgraph';
  setState({ kind: 'starting' });
  statusItem.show();
  context.subscriptions.push(
    output,
    statusItem,
    vscode.commands.registerCommand(RESTART_COMMAND, () => queue(restart)),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => output.show(true)),
    vscode.commands.registerCommand(SHOW_ORDERING_GRAPH_COMMAND, (passed?: unknown) => showOrderingGraph(passed)),
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

function setState(state: ServerState): void {
  serverState = state;
  const view = statusView(state);
  statusItem.text = view.text;
  statusItem.tooltip = view.tooltip;
  statusItem.command = view.command;
  statusItem.backgroundColor = view.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  setState({ kind: 'stopped' });
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
  setState({ kind: 'starting' });
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const resolution = resolveServerPath({
    configured: vscode.workspace.getConfiguration(SECTION).get<string>('server.path'),
    env: process.env,
    platform: process.platform,
    homeDir: os.homedir(),
    baseDir: folder,
    bundled: bundledServerPath(extensionDir, process.platform),
  });
  if (!resolution.found) {
    output.appendLine(`Looked for the server at:\n  ${resolution.tried.join('\n  ') || '(nowhere)'}`);
    setState({ kind: 'failed', reason: 'no server binary found' });
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
      // The server reports its indexing as work-done progress; the status item follows it (and
      // the client still shows the progress itself).
      handleWorkDoneProgress: (_token, params, next) => {
        if (client === newClient) setState(afterProgress(serverState, params as WorkDoneProgress));
        next(_token, params);
      },
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
  newClient.onDidChangeState((event) => {
    // Our own stop clears `client` first; a change of a client we no longer hold is that stop.
    if (client !== newClient) return;
    if (event.newState === State.Stopped) {
      setState({ kind: 'failed', reason: 'the server stopped' });
    } else if (event.newState === State.Starting) {
      setState({ kind: 'starting' });
    } else if (event.newState === State.Running && serverState.kind !== 'indexing') {
      setState({ kind: 'ready' });
    }
  });
  try {
    await newClient.start();
    if (client === newClient && serverState.kind === 'starting') setState({ kind: 'ready' });
  } catch (error) {
    client = undefined;
    setState({ kind: 'failed', reason: 'the server failed to start' });
    output.appendLine(`The server failed to start: ${String(error)}`);
    void showMissingServer(
      `skillgraph: the language server at ${resolution.path} failed to start (${String(error)}). ` +
        'Check `skillgraph.server.path`, or reinstall the server (`pip install .` or `cargo install --path server` in a clone of the skillgraph repository).',
    );
  }
}

/**
 * Asks the server for the ordering graph of the active document's workspace (or of one agent,
 * when a code lens passes it) and opens it as a Markdown preview.
 */
async function showOrderingGraph(passed: unknown): Promise<void> {
  const argument = orderingGraphArgument(passed, vscode.window.activeTextEditor?.document.uri.toString());
  if (argument === undefined) {
    void vscode.window.showErrorMessage('skillgraph: open a SwarmKit topology or workspace file to show its ordering graph.');
    return;
  }
  const running = client;
  if (running === undefined || !running.isRunning()) {
    void vscode.window.showErrorMessage('skillgraph: the language server is not running; restart it from the status bar.');
    return;
  }
  let answer: unknown;
  try {
    answer = await running.sendRequest(ExecuteCommandRequest.type, {
      command: ORDERING_GRAPH_SERVER_COMMAND,
      arguments: [argument],
    });
  } catch (error) {
    output.appendLine(`The ordering graph request failed: ${String(error)}`);
    void vscode.window.showErrorMessage(`skillgraph: the server could not draw the ordering graph: ${errorMessage(error)}`);
    return;
  }
  const problem = badGraphAnswer(answer);
  if (problem !== undefined) {
    void vscode.window.showErrorMessage(`skillgraph: ${problem}.`);
    return;
  }
  const document = await vscode.workspace.openTextDocument({
    language: 'markdown',
    content: orderingGraphMarkdown(answer as string, argument),
  });
  // The built-in preview shows the text; a Mermaid extension for it draws the diagram.
  await vscode.commands.executeCommand('markdown.showPreview', document.uri);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

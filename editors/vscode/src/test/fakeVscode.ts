// A stand-in for the `vscode` module, just large enough for extension.ts and vscode-languageclient
// to start, talk to a server and stop under plain node. VS Code itself cannot be downloaded where
// these tests run; this fakes the editor, not the protocol: the client library and the LSP
// traffic stay real.
//
// Settings live in `settings.user` (full keys such as `skillgraph.tools.presets`); defaults come
// from package.json, as in VS Code.

import * as fs from 'node:fs';
import * as path from 'node:path';
import Module = require('node:module');

type Listener<T> = (event: T) => unknown;

class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  constructor(private readonly callOnDispose: () => unknown) {}
  dispose(): void {
    this.callOnDispose();
  }
}

class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Uri {
  static parse(value: string): Uri {
    const url = new URL(value);
    return new Uri(url.protocol.replace(/:$/, ''), decodeURIComponent(url.pathname), value);
  }
  static file(fsPath: string): Uri {
    return new Uri('file', fsPath, 'file://' + encodeURI(fsPath));
  }
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
    private readonly text: string,
  ) {}
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

class CancellationError extends Error {}

const noopEvent = (): Disposable => new Disposable(() => undefined);

export interface FakeVscode {
  module: Record<string, unknown>;
  settings: { user: Record<string, unknown> };
  errors: string[];
  output: string[];
  commands: Map<string, (...args: unknown[]) => unknown>;
  /** Every `executeCommand` call, registered command or not (e.g. `markdown.showPreview`). */
  executed: { id: string; args: unknown[] }[];
  /** The documents opened with `openTextDocument({content})`. */
  opened: { language?: string; content: string; uri: string }[];
  /** The status bar items created, each with the history of its tooltips. */
  statusItems: FakeStatusItem[];
  /** Fires `onDidChangeConfiguration` for the given full setting keys. */
  changeSettings(changes: Record<string, unknown>): void;
  /** Makes the document at `uri` the active editor's; `undefined` closes it. */
  setActiveDocument(uri: string | undefined): void;
}

export interface FakeStatusItem {
  id: string;
  text: string;
  tooltip: string | undefined;
  command: string | undefined;
  backgroundColor: unknown;
  visible: boolean;
  tooltips: string[];
}

class ThemeColor {
  constructor(readonly id: string) {}
}

export function createFakeVscode(workspaceFolder: string, manifestPath: string): FakeVscode {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const defaults: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(manifest.contributes.configuration.properties)) {
    defaults[key] = (spec as { default: unknown }).default;
  }
  const settings = { user: {} as Record<string, unknown> };
  const errors: string[] = [];
  const output: string[] = [];
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const executed: { id: string; args: unknown[] }[] = [];
  const opened: { language?: string; content: string; uri: string }[] = [];
  const statusItems: FakeStatusItem[] = [];
  const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();

  const folder = { uri: Uri.file(workspaceFolder), name: path.basename(workspaceFolder), index: 0 };

  const getConfiguration = (section?: string) => {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: (key: string, fallback?: unknown) => {
        const name = full(key);
        if (name in settings.user) return settings.user[name];
        if (name in defaults) return defaults[name];
        return fallback;
      },
      has: (key: string) => full(key) in settings.user || full(key) in defaults,
      inspect: (key: string) => ({
        key: full(key),
        defaultValue: defaults[full(key)],
        globalValue: settings.user[full(key)],
        workspaceValue: undefined,
        workspaceFolderValue: undefined,
      }),
      update: async () => undefined,
    };
  };

  const outputChannel = (name: string) => ({
    name,
    append: (text: string) => output.push(text),
    appendLine: (text: string) => output.push(text + '\n'),
    replace: () => undefined,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  });

  const createStatusBarItem = (id: string) => {
    let tooltip: string | undefined;
    const item = {
      id,
      text: '',
      command: undefined as string | undefined,
      backgroundColor: undefined as unknown,
      visible: false,
      name: '',
      tooltips: [] as string[],
      get tooltip() {
        return tooltip;
      },
      set tooltip(value: string | undefined) {
        tooltip = value;
        if (value !== undefined) item.tooltips.push(value);
      },
      show: () => {
        item.visible = true;
      },
      hide: () => {
        item.visible = false;
      },
      dispose: () => {
        item.visible = false;
      },
    };
    statusItems.push(item);
    return item;
  };

  const window: Record<string, unknown> = {
    createOutputChannel: outputChannel,
    createStatusBarItem,
    showErrorMessage: async (message: string) => {
      errors.push(message);
      return undefined;
    },
    showWarningMessage: async () => undefined,
    showInformationMessage: async () => undefined,
    withProgress: async (_options: unknown, task: (progress: unknown, token: unknown) => unknown) =>
      task({ report: () => undefined }, new CancellationTokenSource().token),
    activeTextEditor: undefined,
    visibleTextEditors: [],
    onDidChangeActiveTextEditor: noopEvent,
    onDidChangeVisibleTextEditors: noopEvent,
    tabGroups: { all: [], onDidChangeTabs: noopEvent, onDidChangeTabGroups: noopEvent },
  };

  const known: Record<string, unknown> = {
    version: '1.82.0',
    Disposable,
    ThemeColor,
    StatusBarAlignment: { Left: 1, Right: 2 },
    EventEmitter,
    Uri,
    CancellationTokenSource,
    CancellationError,
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    env: { appName: 'Fake VS Code', language: 'en', openExternal: async () => true },
    commands: {
      registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
        commands.set(id, run);
        return new Disposable(() => commands.delete(id));
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        executed.push({ id, args });
        return commands.get(id)?.(...args);
      },
    },
    window,
    workspace: {
      workspaceFolders: [folder],
      getWorkspaceFolder: () => folder,
      textDocuments: [],
      getConfiguration,
      onDidChangeConfiguration: configurationChanged.event,
      createFileSystemWatcher: () => ({
        onDidCreate: noopEvent,
        onDidChange: noopEvent,
        onDidDelete: noopEvent,
        dispose: () => undefined,
      }),
      applyEdit: async () => true,
      openTextDocument: async (options: { language?: string; content?: string }) => {
        const uri = Uri.parse(`untitled:Untitled-${opened.length + 1}`);
        opened.push({ language: options.language, content: options.content ?? '', uri: uri.toString() });
        return { uri, languageId: options.language, getText: () => options.content ?? '' };
      },
      // Every other workspace event (documents opened, saved, renamed …) never fires here.
    },
    languages: {
      match: () => 0,
      createDiagnosticCollection: () => ({
        set: () => undefined,
        delete: () => undefined,
        clear: () => undefined,
        forEach: () => undefined,
        get: () => undefined,
        has: () => false,
        dispose: () => undefined,
      }),
      // register*Provider: see the proxy below.
    },
  };

  // Whatever else the client library touches (provider registrations, workspace events, the
  // classes and enums used to convert results) answers with a harmless disposable-returning stub.
  const stub: unknown = new Proxy(function () {}, {
    get: (_target, property) => (property === 'then' ? undefined : stub),
    apply: () => new Disposable(() => undefined),
    construct: () => ({}),
  });
  const withFallback = (object: Record<string, unknown>): Record<string, unknown> =>
    new Proxy(object, { get: (target, property) => (property in target ? target[property as string] : stub) });
  for (const name of ['window', 'workspace', 'languages'] as const) {
    known[name] = withFallback(known[name] as Record<string, unknown>);
  }

  return {
    module: withFallback(known),
    settings,
    errors,
    output,
    commands,
    executed,
    opened,
    statusItems,
    setActiveDocument(uri) {
      window.activeTextEditor = uri === undefined ? undefined : { document: { uri: Uri.parse(uri) } };
    },
    changeSettings(changes) {
      Object.assign(settings.user, changes);
      for (const [key, value] of Object.entries(changes)) if (value === undefined) delete settings.user[key];
      configurationChanged.fire({
        affectsConfiguration: (section) => Object.keys(changes).some((key) => key === section || key.startsWith(section + '.')),
      });
    },
  };
}

/** Makes `require('vscode')` return `fake` for everything loaded after this call. */
export function installFakeVscode(fake: FakeVscode): void {
  const moduleInternals = Module as unknown as {
    _resolveFilename(request: string, ...rest: unknown[]): string;
  };
  const resolve = moduleInternals._resolveFilename;
  moduleInternals._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
  };
  require.cache['vscode'] = { id: 'vscode', filename: 'vscode', loaded: true, exports: fake.module } as NodeJS.Module;
}

// extension.ts end to end, minus VS Code: the real vscode-languageclient drives a small fake
// language server over stdio, and the test reads what the server received. It checks that the
// server is started as `skillgraph lsp`, gets the settings in the skillgraph.toml shape
// (initializationOptions, didChangeConfiguration, workspace/configuration), is restarted by the
// command, and that a missing binary produces the install hint.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createFakeVscode, FakeVscode, installFakeVscode } from './fakeVscode';

// A language server in a dozen lines: logs every message it receives (and its argv) as JSON
// lines, advertises hover, and after `initialized` asks the client for three configuration
// sections so that the answers end up in the log too.
const FAKE_SERVER = `
const fs = require('fs');
const log = (entry) => fs.appendFileSync(process.env.FAKE_LSP_LOG, JSON.stringify(entry) + '\\n');
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
  process.stdout.write('Content-Length: ' + body.length + '\\r\\n\\r\\n');
  process.stdout.write(body);
};
log({ argv: process.argv.slice(2) });
let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\\r\\n\\r\\n');
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: *(\\d+)/i.exec(buffer.subarray(0, headerEnd).toString())[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
    buffer = buffer.subarray(headerEnd + 4 + length);
    log(message);
    if (message.method === 'initialize') send({ id: message.id, result: { capabilities: {
      textDocumentSync: 2, hoverProvider: true, executeCommandProvider: { commands: ['skillgraph.orderingGraph'] } } } });
    if (message.method === 'initialized') {
      send({ id: 'config', method: 'workspace/configuration', params: { items: [
        { section: 'skillgraph' }, { section: 'skillgraph.tools' }, { section: 'files.exclude' } ] } });
      send({ id: 'progress', method: 'window/workDoneProgress/create', params: { token: 'skillgraph/indexing' } });
    }
    // Indexing, as the real server reports it: begin once the client accepted the token, end a
    // little later.
    if (message.id === 'progress' && !message.method) {
      send({ method: '$/progress', params: { token: 'skillgraph/indexing', value: { kind: 'begin', title: 'skillgraph', message: 'indexing the workspace' } } });
      setTimeout(() => send({ method: '$/progress', params: { token: 'skillgraph/indexing', value: { kind: 'end', message: '12 files indexed' } } }), 200);
    }
    if (message.method === 'workspace/executeCommand') {
      const [argument] = message.params.arguments;
      if (argument.agent === 'broken') send({ id: message.id, error: { code: -32602, message: 'no agent broken' } });
      else send({ id: message.id, result: 'flowchart TD\\n  fetch --> render\\n' });
    }
    if (message.method === 'shutdown') send({ id: message.id, result: null });
    if (message.method === 'exit') process.exit(0);
  }
});
`;

interface Logged {
  argv?: string[];
  id?: number | string;
  method?: string;
  params?: { initializationOptions?: unknown; settings?: unknown; command?: string; arguments?: unknown[] };
  result?: unknown;
}

const posixOnly = process.platform === 'win32' ? 'the fake server is a shebang script' : false;

describe('extension', { skip: posixOnly }, () => {
  let scratch: string;
  let logFile: string;
  let fake: FakeVscode;
  let extension: { activate(context: unknown): Promise<void>; deactivate(): Promise<void> };
  const context = { subscriptions: [] as { dispose(): unknown }[], extensionPath: '' };

  const logged = (): Logged[] =>
    fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line))
      : [];

  async function waitFor<T>(what: string, find: (log: Logged[]) => T | undefined): Promise<T> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const found = find(logged());
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(
      `timed out waiting for ${what}; the server received:\n${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '(nothing)'}` +
        `\nThe output channel holds:\n${fake.output.join('')}\nErrors shown: ${JSON.stringify(fake.errors)}`,
    );
  }

  before(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgraph-vscode-'));
    logFile = path.join(scratch, 'server.log');
    process.env.FAKE_LSP_LOG = logFile;
    const server = path.join(scratch, 'skillgraph');
    fs.writeFileSync(server, `#!${process.execPath}\n${FAKE_SERVER}`, { mode: 0o755 });
    // Where the extension is installed; its bundled server is added by the last tests.
    context.extensionPath = path.join(scratch, 'extension');
    fs.mkdirSync(context.extensionPath);

    fake = createFakeVscode(scratch, path.join(__dirname, '..', '..', 'package.json'));
    fake.settings.user = {
      'skillgraph.server.path': server,
      'skillgraph.tools.presets': ['claude-code'],
      'skillgraph.tools.mcpToolLists': ['tools/orders.json'],
      'skillgraph.rules': { 'agent.duplicate-grant': 'off' },
    };
    installFakeVscode(fake);
    extension = require('../extension');
  });

  after(async () => {
    await extension.deactivate();
    for (const item of context.subscriptions) item.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const expected = () => ({
    tools: { presets: ['claude-code'], 'mcp-tool-lists': [path.join(scratch, 'tools', 'orders.json')] },
    rules: { 'agent.duplicate-grant': 'off' },
  });

  it('starts `skillgraph lsp` with the settings as initializationOptions', async () => {
    await extension.activate(context);
    assert.deepEqual(await waitFor('argv', (log) => log.find((e) => e.argv)?.argv), ['lsp']);
    const initialize = await waitFor('initialize', (log) => log.find((e) => e.method === 'initialize'));
    assert.deepEqual(initialize.params?.initializationOptions, expected());
    assert.deepEqual(fake.errors, []);
  });

  it('sends the settings in didChangeConfiguration under `skillgraph`', async () => {
    const change = await waitFor('didChangeConfiguration', (log) =>
      log.find((e) => e.method === 'workspace/didChangeConfiguration'),
    );
    assert.deepEqual(change.params?.settings, { skillgraph: expected() });
  });

  it('answers workspace/configuration in the server shape, and other sections as VS Code does', async () => {
    const answer = await waitFor('the configuration answer', (log) => log.find((e) => e.id === 'config' && !e.method));
    assert.deepEqual(answer.result, [expected(), expected().tools, null]);
  });

  it('sends changed settings to the running server', async () => {
    fake.changeSettings({ 'skillgraph.skillMd.strict': true });
    const change = await waitFor('a second didChangeConfiguration', (log) =>
      log.filter((e) => e.method === 'workspace/didChangeConfiguration')[1],
    );
    assert.deepEqual(change.params?.settings, { skillgraph: { 'skill-md': { strict: true }, ...expected() } });
  });

  it('shows the server starting, indexing, then ready in the status bar', async () => {
    const item = fake.statusItems.find((i) => i.id === 'skillgraph.status');
    assert.ok(item?.visible);
    await waitFor('ready', () => (item.tooltips.some((t) => t.includes('ready (12 files indexed)')) ? true : undefined));
    const states = item.tooltips.map((t) => /^skillgraph: (\w+)/.exec(t)?.[1]);
    const firstIndexing = states.indexOf('indexing');
    assert.ok(states.indexOf('starting') < firstIndexing && firstIndexing >= 0, states.join(' '));
    assert.equal(states.at(-1), 'ready');
    assert.equal(item.command, 'skillgraph.showOutput');
    assert.equal(item.backgroundColor, undefined);
  });

  it('opens the ordering graph the server draws in a Markdown preview', async () => {
    const topology = path.join(scratch, 'topologies', 'estate.yaml');
    fake.setActiveDocument('file://' + topology);
    await fake.commands.get('skillgraph.showOrderingGraph')?.();
    const request = await waitFor('executeCommand', (log) => log.find((e) => e.method === 'workspace/executeCommand'));
    assert.deepEqual(request.params, {
      command: 'skillgraph.orderingGraph',
      arguments: [{ uri: 'file://' + topology, agent: null }],
    });
    assert.equal(fake.opened.length, 1);
    assert.equal(fake.opened[0].language, 'markdown');
    assert.match(fake.opened[0].content, /^```mermaid\nflowchart TD\n {2}fetch --> render\n```$/m);
    const preview = fake.executed.find((c) => c.id === 'markdown.showPreview');
    assert.equal(String(preview?.args[0]), fake.opened[0].uri);
  });

  it('passes a code lens agent on, and reports a server error instead of opening anything', async () => {
    await fake.commands.get('skillgraph.showOrderingGraph')?.({ agent: 'broken' });
    const request = await waitFor('a second executeCommand', (log) => log.filter((e) => e.method === 'workspace/executeCommand')[1]);
    assert.equal((request.params?.arguments?.[0] as { agent: string }).agent, 'broken');
    assert.equal(fake.opened.length, 1);
    assert.match(fake.errors.at(-1) ?? '', /could not draw the ordering graph: no agent broken/);
    fake.errors.length = 0;
  });

  it('asks for a document when none is open', async () => {
    fake.setActiveDocument(undefined);
    await fake.commands.get('skillgraph.showOrderingGraph')?.();
    assert.match(fake.errors.at(-1) ?? '', /open a SwarmKit topology/);
    fake.errors.length = 0;
  });

  it('restarts the server on the restart command', async () => {
    await fake.commands.get('skillgraph.restartServer')?.();
    await waitFor('shutdown and exit', (log) => (log.some((e) => e.method === 'exit') ? true : undefined));
    await waitFor('a second initialize', (log) => log.filter((e) => e.method === 'initialize')[1]);
  });

  it('says how to install the server when the binary is missing', async () => {
    fake.changeSettings({ 'skillgraph.server.path': path.join(scratch, 'missing', 'skillgraph') });
    // The path change restarts the server; wait for that restart to report.
    const deadline = Date.now() + 10_000;
    while (fake.errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fake.errors.length, 1);
    assert.match(fake.errors[0], /set in `skillgraph\.server\.path` was not found/);
    assert.match(fake.errors[0], /cargo install --path server/);
    const item = fake.statusItems.find((i) => i.id === 'skillgraph.status');
    assert.match(item?.tooltip ?? '', /no server binary found\. Click to restart/);
    assert.equal(item?.command, 'skillgraph.restartServer');
    assert.ok(item?.backgroundColor);
  });

  it('starts the bundled server when the setting is empty', async () => {
    const bundled = path.join(context.extensionPath, 'server', 'skillgraph');
    fs.mkdirSync(path.dirname(bundled));
    fs.copyFileSync(path.join(scratch, 'skillgraph'), bundled);
    fs.chmodSync(bundled, 0o755);
    const before = logged().filter((e) => e.method === 'initialize').length;
    fake.changeSettings({ 'skillgraph.server.path': undefined });
    await waitFor('an initialize from the bundled server', (log) => log.filter((e) => e.method === 'initialize')[before]);
    assert.ok(fake.output.some((line) => line.includes(`Starting ${bundled} lsp (found via bundled)`)), fake.output.join(''));
  });
});

// package.json against the code: the declared settings, command and activation events must match
// what the extension reads and serves, since no VS Code is at hand to catch a mismatch at runtime.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SERVER_SETTINGS, SEVERITIES } from '../config';
import { SHOW_ORDERING_GRAPH_COMMAND } from '../orderingGraph';
import { RESTART_COMMAND, SHOW_OUTPUT_COMMAND } from '../status';

const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const properties: Record<string, { default: unknown; enum?: string[]; scope?: string; additionalProperties?: { enum: string[] } }> =
  manifest.contributes.configuration.properties;

describe('package.json', () => {
  it('declares exactly the server settings the mapping reads, plus server.path and trace.server', () => {
    const declared = Object.keys(properties).sort();
    const expected = [
      'skillgraph.server.path',
      'skillgraph.trace.server',
      ...SERVER_SETTINGS.map((s) => `skillgraph.${s.key}`),
    ].sort();
    assert.deepEqual(declared, expected);
  });

  it('gives every server setting the default the server applies when it is not sent', () => {
    // Only what the user sets is sent (`userValue`); the defaults shown must be the server's.
    const on = ['audit.enabled', 'audit.lens'];
    for (const { key } of SERVER_SETTINGS) {
      const value = properties[`skillgraph.${key}`].default;
      if (on.includes(key)) {
        assert.equal(value, true, key);
        continue;
      }
      assert.ok(
        value === false || value === '' || (Array.isArray(value) && value.length === 0) || JSON.stringify(value) === '{}',
        key,
      );
    }
  });

  it('offers the same rule severities as the mapping accepts', () => {
    assert.deepEqual(properties['skillgraph.rules'].additionalProperties?.enum, [...SEVERITIES]);
  });

  it('offers the trace levels vscode-languageclient understands', () => {
    assert.deepEqual(properties['skillgraph.trace.server'].enum, ['off', 'messages', 'verbose']);
  });

  it('keeps server.path out of workspace control in untrusted folders', () => {
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skillgraph.server.path']);
  });

  it('declares the commands the extension registers', () => {
    assert.deepEqual(
      manifest.contributes.commands.map((c: { command: string; category: string }) => `${c.category}: ${c.command}`),
      [
        `skillgraph: ${RESTART_COMMAND}`,
        `skillgraph: ${SHOW_ORDERING_GRAPH_COMMAND}`,
        `skillgraph: ${SHOW_OUTPUT_COMMAND}`,
      ],
    );
  });

  it('keeps the bundled server in the package', () => {
    const ignored = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(!ignored.some((line) => line.trim().startsWith('server')), 'server/ must not be ignored');
    assert.ok(fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n').includes('server/'));
  });

  it('activates when a SKILL.md or YAML file is opened, and on folders holding skillgraph files', () => {
    // VS Code has no activation event for a file pattern; the document selector narrows what
    // reaches the server once active.
    assert.deepEqual(manifest.activationEvents, [
      'onLanguage:yaml',
      'onLanguage:markdown',
      'workspaceContains:**/SKILL.md',
      'workspaceContains:**/workspace.yaml',
      'workspaceContains:**/workspace.yml',
      'workspaceContains:**/skillgraph.toml',
    ]);
  });

  it('points main at the compiled entry point', () => {
    assert.equal(manifest.main, './out/extension.js');
    assert.ok(fs.existsSync(path.join(root, 'out', 'extension.js')));
  });

  it('requires a VS Code no older than the API types it compiles against', () => {
    // vsce refuses to package when @types/vscode is newer than engines.vscode.
    assert.equal(manifest.engines.vscode, `^${manifest.devDependencies['@types/vscode']}`);
  });

  it('ships the icon it names', () => {
    assert.ok(fs.existsSync(path.join(root, manifest.icon)));
  });
});

// Settings -> server configuration (the JSON shape of skillgraph.toml, SPEC §6).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configurationForSection, MappingContext, ServerSettingKey, toServerConfig } from '../config';

const context: MappingContext = { baseDir: '/repo', homeDir: '/home/ada', platform: 'linux' };

function map(settings: Partial<Record<ServerSettingKey, unknown>>, ctx: MappingContext = context) {
  return toServerConfig((key) => settings[key], ctx);
}

describe('toServerConfig', () => {
  it('maps every setting to the skillgraph.toml shape', () => {
    const { config, problems } = map({
      'skillMd.strict': true,
      'skillMd.extraFields': ['x-owner'],
      'tools.available': ['Read', 'Grep'],
      'tools.mcpToolLists': ['tools/orders.json'],
      'tools.presets': ['claude-code'],
      rules: { 'agent.duplicate-grant': 'off', 'agent.requires-not-enforced': 'error' },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(config, {
      'skill-md': { strict: true, 'extra-fields': ['x-owner'] },
      tools: { available: ['Read', 'Grep'], 'mcp-tool-lists': ['/repo/tools/orders.json'], presets: ['claude-code'] },
      rules: { 'agent.duplicate-grant': 'off', 'agent.requires-not-enforced': 'error' },
    });
  });

  it('maps the audit settings, anchoring a log path and keeping a URL as written', () => {
    assert.deepEqual(map({ 'audit.enabled': false, 'audit.lens': false, 'audit.log': 'logs/audit.sqlite' }), {
      config: { audit: { enabled: false, lens: false, log: '/repo/logs/audit.sqlite' } },
      problems: [],
    });
    const url = 'postgres://sg@db.internal/swarmkit';
    assert.deepEqual(map({ 'audit.log': ` ${url} ` }).config, { audit: { log: url } });
    assert.deepEqual(map({ 'audit.log': '' }).config, {});
    const bad = map({ 'audit.log': 3 });
    assert.deepEqual(bad.config, {});
    assert.match(bad.problems.join('\n'), /skillgraph\.audit\.log must be a path or a URL/);
  });

  it('sends nothing for settings the user did not set', () => {
    // An empty object lets skillgraph.toml and the server defaults apply; in particular no
    // `tools.available: []`, which would mean "an inventory with no tools".
    assert.deepEqual(map({}), { config: {}, problems: [] });
  });

  it('keeps an explicit empty list and an explicit false', () => {
    const { config } = map({ 'tools.available': [], 'skillMd.strict': false });
    assert.deepEqual(config, { 'skill-md': { strict: false }, tools: { available: [] } });
  });

  it('only creates the tables that have a value', () => {
    assert.deepEqual(map({ 'tools.presets': ['claude-code'] }).config, { tools: { presets: ['claude-code'] } });
  });

  it('resolves tool-list paths: ~, absolute, relative, and no workspace folder', () => {
    const lists = ['~/tools/a.json', '/abs/b.json', 'c.json'];
    assert.deepEqual(map({ 'tools.mcpToolLists': lists }).config.tools?.['mcp-tool-lists'], [
      '/home/ada/tools/a.json',
      '/abs/b.json',
      '/repo/c.json',
    ]);
    const noFolder = map({ 'tools.mcpToolLists': ['c.json'] }, { ...context, baseDir: undefined });
    assert.deepEqual(noFolder.config.tools?.['mcp-tool-lists'], ['c.json']);
  });

  it('resolves Windows paths with Windows rules', () => {
    const { config } = map({ 'tools.mcpToolLists': ['tools\\a.json', 'D:\\b.json'] }, {
      baseDir: 'C:\\repo',
      homeDir: 'C:\\Users\\ada',
      platform: 'win32',
    });
    assert.deepEqual(config.tools?.['mcp-tool-lists'], ['C:\\repo\\tools\\a.json', 'D:\\b.json']);
  });

  it('drops malformed values and says why', () => {
    const { config, problems } = map({
      'skillMd.strict': 'yes',
      'skillMd.extraFields': ['x-owner', 3, ''],
      'tools.available': 'Read',
      rules: { 'agent.duplicate-grant': 'loud', 'agent.duplicate-id': 'warning' },
    });
    assert.deepEqual(config, {
      'skill-md': { 'extra-fields': ['x-owner'] },
      rules: { 'agent.duplicate-id': 'warning' },
    });
    assert.equal(problems.length, 5);
    assert.match(problems.join('\n'), /skillgraph\.skillMd\.strict must be true or false/);
    assert.match(problems.join('\n'), /"agent\.duplicate-grant" has severity "loud"/);
  });

  it('rejects a rules value that is not an object', () => {
    const { config, problems } = map({ rules: ['agent.duplicate-grant'] });
    assert.deepEqual(config, {});
    assert.match(problems[0], /must be an object/);
  });
});

describe('configurationForSection', () => {
  const config = { tools: { presets: ['claude-code'] }, rules: { 'agent.duplicate-grant': 'off' as const } };

  it('answers the skillgraph section with the whole configuration', () => {
    assert.deepEqual(configurationForSection(config, 'skillgraph'), { handled: true, value: config });
  });

  it('answers dotted subsections, null when absent', () => {
    assert.deepEqual(configurationForSection(config, 'skillgraph.tools.presets'), { handled: true, value: ['claude-code'] });
    assert.deepEqual(configurationForSection(config, 'skillgraph.skill-md'), { handled: true, value: null });
  });

  it('leaves other sections to VS Code', () => {
    assert.deepEqual(configurationForSection(config, 'yaml'), { handled: false });
    assert.deepEqual(configurationForSection(config, 'skillgraphx'), { handled: false });
    assert.deepEqual(configurationForSection(config, undefined), { handled: false });
    assert.deepEqual(configurationForSection(config, null), { handled: false });
  });
});

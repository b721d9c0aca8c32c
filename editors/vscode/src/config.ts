// Turns the extension's `skillgraph.*` settings into the configuration the server reads.
//
// The server takes the keys of `skillgraph.toml` (SPEC §6) as JSON: `initializationOptions`, the
// `skillgraph` section of `workspace/didChangeConfiguration`, and `workspace/configuration`
// answers. VS Code settings are camelCase and flat, so this module is the single place that maps
// one onto the other. No `vscode` import: the caller passes a reader, and tests pass a plain
// object.

import * as path from 'node:path';
import { expandHome } from './serverPath';

export const SEVERITIES = ['off', 'error', 'warning', 'info', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface ServerConfig {
  'skill-md'?: { strict?: boolean; 'extra-fields'?: string[] };
  tools?: { available?: string[]; 'mcp-tool-lists'?: string[]; presets?: string[] };
  rules?: Record<string, Severity>;
  audit?: { enabled?: boolean; log?: string; lens?: boolean };
}

type Kind = 'boolean' | 'strings' | 'paths' | 'rules' | 'log';

/**
 * Every setting the server reads: its key under `skillgraph.` and where it lands in the server's
 * configuration. `package.json` declares the same keys; a unit test keeps the two in step.
 */
export const SERVER_SETTINGS = [
  { key: 'skillMd.strict', at: ['skill-md', 'strict'], kind: 'boolean' },
  { key: 'skillMd.extraFields', at: ['skill-md', 'extra-fields'], kind: 'strings' },
  { key: 'tools.available', at: ['tools', 'available'], kind: 'strings' },
  { key: 'tools.mcpToolLists', at: ['tools', 'mcp-tool-lists'], kind: 'paths' },
  { key: 'tools.presets', at: ['tools', 'presets'], kind: 'strings' },
  { key: 'rules', at: ['rules'], kind: 'rules' },
  { key: 'audit.enabled', at: ['audit', 'enabled'], kind: 'boolean' },
  { key: 'audit.log', at: ['audit', 'log'], kind: 'log' },
  { key: 'audit.lens', at: ['audit', 'lens'], kind: 'boolean' },
] as const satisfies readonly { key: string; at: readonly string[]; kind: Kind }[];

export type ServerSettingKey = (typeof SERVER_SETTINGS)[number]['key'];

/**
 * Returns the value the user set for `skillgraph.<key>`, or `undefined` when they set none.
 *
 * Unset must stay distinguishable from the default: sending `tools.available: []` would tell the
 * server "the inventory is configured and empty", turning on `dependencies-unsatisfied` warnings
 * for every tool, and would override whatever `skillgraph.toml` says.
 */
export type SettingReader = (key: ServerSettingKey) => unknown;

export interface MappingContext {
  /** Relative tool-list paths resolve against this (the workspace folder), if given. */
  baseDir?: string;
  homeDir: string;
  platform: NodeJS.Platform;
}

export interface Mapped {
  config: ServerConfig;
  /** Settings that were ignored, worded for the output channel. */
  problems: string[];
}

export function toServerConfig(read: SettingReader, context: MappingContext): Mapped {
  const config: Record<string, Record<string, unknown>> = {};
  const problems: string[] = [];
  const put = (at: readonly string[], value: unknown) => {
    if (at.length === 1) {
      (config as Record<string, unknown>)[at[0]] = value;
    } else {
      (config[at[0]] ??= {})[at[1]] = value;
    }
  };

  for (const setting of SERVER_SETTINGS) {
    const raw = read(setting.key);
    if (raw === undefined || raw === null) continue;
    const name = `skillgraph.${setting.key}`;
    switch (setting.kind) {
      case 'boolean':
        if (typeof raw === 'boolean') put(setting.at, raw);
        else problems.push(`${name} must be true or false; ignored.`);
        break;
      case 'strings':
      case 'paths': {
        const list = stringList(raw, name, problems);
        if (list === undefined) break;
        put(setting.at, setting.kind === 'paths' ? list.map((p) => absolutePath(p, context)) : list);
        break;
      }
      case 'rules': {
        const rules = ruleMap(raw, name, problems);
        if (rules !== undefined) put(setting.at, rules);
        break;
      }
      case 'log': {
        if (typeof raw !== 'string') {
          problems.push(`${name} must be a path or a URL; ignored.`);
          break;
        }
        const log = raw.trim();
        // Empty: where the runtime writes it. A URL (`postgres://`, `sqlite:///`) is the server's
        // to read; a path is anchored like the tool lists.
        if (log === '') break;
        put(setting.at, log.includes('://') ? log : absolutePath(log, context));
        break;
      }
    }
  }
  return { config: config as ServerConfig, problems };
}

/**
 * Answers a `workspace/configuration` item: `skillgraph` is the whole mapped configuration,
 * `skillgraph.tools` a part of it. Any other section is not ours (`handled: false`) and goes to
 * VS Code's default answer.
 */
export function configurationForSection(
  config: ServerConfig,
  section: string | null | undefined,
): { handled: true; value: unknown } | { handled: false } {
  if (section === 'skillgraph') return { handled: true, value: config };
  if (!section?.startsWith('skillgraph.')) return { handled: false };
  let value: unknown = config;
  for (const part of section.slice('skillgraph.'.length).split('.')) {
    value = isPlainObject(value) ? value[part] : undefined;
  }
  // LSP wants `null` for "no such setting"; `undefined` would vanish from the JSON array.
  return { handled: true, value: value ?? null };
}

function stringList(raw: unknown, name: string, problems: string[]): string[] | undefined {
  if (!Array.isArray(raw)) {
    problems.push(`${name} must be a list of strings; ignored.`);
    return undefined;
  }
  const list: string[] = [];
  for (const entry of raw) {
    if (typeof entry === 'string' && entry.trim() !== '') list.push(entry.trim());
    else problems.push(`${name}: entry ${JSON.stringify(entry)} is not a non-empty string; skipped.`);
  }
  return list;
}

function ruleMap(raw: unknown, name: string, problems: string[]): Record<string, Severity> | undefined {
  if (!isPlainObject(raw)) {
    problems.push(`${name} must be an object mapping rule codes to severities; ignored.`);
    return undefined;
  }
  const rules: Record<string, Severity> = {};
  for (const [code, severity] of Object.entries(raw)) {
    if ((SEVERITIES as readonly unknown[]).includes(severity)) {
      rules[code] = severity as Severity;
    } else {
      problems.push(
        `${name}: "${code}" has severity ${JSON.stringify(severity)}; use one of ${SEVERITIES.join(', ')}. Skipped.`,
      );
    }
  }
  return rules;
}

function absolutePath(file: string, context: MappingContext): string {
  const p = context.platform === 'win32' ? path.win32 : path.posix;
  const expanded = expandHome(file, context.homeDir, context.platform);
  // A relative path in skillgraph.toml belongs to that file's folder; a setting has no such
  // folder, so anchor it to the workspace folder here rather than leave the server guessing.
  if (p.isAbsolute(expanded) || context.baseDir === undefined) return expanded;
  return p.resolve(context.baseDir, expanded);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

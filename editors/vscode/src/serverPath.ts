// Finds the `skillgraph` executable the extension starts: the setting, else the binary bundled in
// the extension, else PATH, else ~/.cargo/bin.
//
// Kept free of any `vscode` import so that `node --test` can exercise it without an editor; the
// environment (PATH, platform, home directory, file checks) comes in as arguments for the same
// reason.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const BINARY_NAME = 'skillgraph';

export interface ResolveOptions {
  /** The `skillgraph.server.path` setting as the user wrote it; empty or blank means unset. */
  configured?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  homeDir: string;
  /** A relative `configured` path is taken relative to this (the first workspace folder). */
  baseDir?: string;
  /**
   * The binary packaged inside the extension (`server/skillgraph` of a platform-specific vsix),
   * used when the setting is empty. Absent in a build without one.
   */
  bundled?: string;
  /** Overridable so tests need no real files; the default asks the file system. */
  isExecutable?: (candidate: string) => boolean;
}

export type Resolution =
  | { found: true; path: string; source: 'setting' | 'bundled' | 'PATH' | 'cargo' }
  | { found: false; configured?: string; tried: string[] };

export function resolveServerPath(options: ResolveOptions): Resolution {
  const { platform } = options;
  const p = pathApi(platform);
  const isExecutable = options.isExecutable ?? ((c: string) => isExecutableFile(c, platform));
  const configured = options.configured?.trim();

  if (configured) {
    // A bare name such as `skillgraph-dev` means "look it up on PATH", as a shell would.
    const looksLikePath =
      configured.includes('/') || configured.startsWith('~') || (platform === 'win32' && configured.includes('\\'));
    if (!looksLikePath) {
      const tried: string[] = [];
      const hit = searchPath(configured, options, isExecutable, tried);
      return hit ? { found: true, path: hit, source: 'setting' } : { found: false, configured, tried };
    }
    let candidate = expandHome(configured, options.homeDir, platform);
    if (!p.isAbsolute(candidate) && options.baseDir) {
      candidate = p.resolve(options.baseDir, candidate);
    }
    const tried: string[] = [];
    for (const withExt of executableNames(candidate, options)) {
      tried.push(withExt);
      if (isExecutable(withExt)) {
        return { found: true, path: withExt, source: 'setting' };
      }
    }
    // No silent fallback: the user asked for this binary, and running another one instead would
    // make "my setting has no effect" bugs very hard to see.
    return { found: false, configured, tried };
  }

  const tried: string[] = [];
  // The extension's own binary matches the extension's version; one on PATH may be anything.
  if (options.bundled) {
    tried.push(options.bundled);
    if (isExecutable(options.bundled)) {
      return { found: true, path: options.bundled, source: 'bundled' };
    }
  }
  const onPath = searchPath(BINARY_NAME, options, isExecutable, tried);
  if (onPath) {
    return { found: true, path: onPath, source: 'PATH' };
  }
  // `cargo install` puts binaries here, but a GUI-launched VS Code often has a PATH without it.
  const cargoHome = options.env.CARGO_HOME || p.join(options.homeDir, '.cargo');
  for (const candidate of executableNames(p.join(cargoHome, 'bin', BINARY_NAME), options)) {
    tried.push(candidate);
    if (isExecutable(candidate)) {
      return { found: true, path: candidate, source: 'cargo' };
    }
  }
  return { found: false, tried };
}

/** The message shown when no binary was found: what was tried and how to fix it. */
export function missingServerMessage(resolution: Extract<Resolution, { found: false }>): string {
  const install =
    'Install the extension package built for your platform, which bundles it; or install it with ' +
    '`pip install .` or `cargo install --path server` in a clone of the skillgraph repository; ' +
    'or set `skillgraph.server.path` to the binary.';
  if (resolution.configured !== undefined) {
    return (
      `skillgraph: the language server \`${resolution.configured}\` set in ` +
      `\`skillgraph.server.path\` was not found or is not executable. ${install}`
    );
  }
  return `skillgraph: could not find the \`${BINARY_NAME}\` language server on PATH or in ~/.cargo/bin. ${install}`;
}

function searchPath(
  name: string,
  options: ResolveOptions,
  isExecutable: (candidate: string) => boolean,
  tried: string[],
): string | undefined {
  const p = pathApi(options.platform);
  const delimiter = options.platform === 'win32' ? ';' : ':';
  for (const dir of (envValue(options.env, 'PATH', options.platform) ?? '').split(delimiter)) {
    // An empty PATH entry means the current directory to a shell; starting a binary from
    // wherever VS Code happened to be launched is not something to do silently.
    if (dir === '') continue;
    for (const candidate of executableNames(p.join(dir, name), options)) {
      tried.push(candidate);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Where a platform-specific package keeps the server, relative to the extension's folder. */
export function bundledServerPath(extensionDir: string, platform: NodeJS.Platform): string {
  return pathApi(platform).join(extensionDir, 'server', platform === 'win32' ? `${BINARY_NAME}.exe` : BINARY_NAME);
}

/** On Windows a command is found under each PATHEXT extension; elsewhere as it is. */
function executableNames(file: string, options: ResolveOptions): string[] {
  if (options.platform !== 'win32') return [file];
  const exts = (envValue(options.env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD')
    .split(';')
    .filter((e) => e !== '');
  if (exts.some((e) => file.toLowerCase().endsWith(e.toLowerCase()))) return [file];
  return exts.map((e) => file + e.toLowerCase());
}

/** Windows environment names are case-insensitive (`Path` is common); POSIX ones are not. */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

export function expandHome(file: string, homeDir: string, platform: NodeJS.Platform): string {
  if (file === '~') return homeDir;
  if (file.startsWith('~/') || (platform === 'win32' && file.startsWith('~\\'))) {
    return pathApi(platform).join(homeDir, file.slice(2));
  }
  return file;
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function isExecutableFile(candidate: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(candidate).isFile()) return false;
    // Windows has no execute bit; the PATHEXT extension is what makes a file runnable there.
    if (platform !== 'win32') fs.accessSync(candidate, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// Server binary resolution: setting first, then PATH, then ~/.cargo/bin, on POSIX and Windows.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bundledServerPath, missingServerMessage, resolveServerPath, ResolveOptions } from '../serverPath';

/** Options whose file system holds exactly `files`. */
function options(files: string[], overrides: Partial<ResolveOptions> = {}): ResolveOptions {
  const existing = new Set(files);
  return {
    env: { PATH: '/usr/local/bin:/usr/bin' },
    platform: 'linux',
    homeDir: '/home/ada',
    isExecutable: (candidate) => existing.has(candidate),
    ...overrides,
  };
}

describe('resolveServerPath', () => {
  const bundled = '/home/ada/.vscode/extensions/skillgraph.skillgraph-0.1.0-linux-x64/server/skillgraph';

  it('uses the bundled binary before PATH and ~/.cargo/bin', () => {
    const result = resolveServerPath(
      options([bundled, '/usr/bin/skillgraph', '/home/ada/.cargo/bin/skillgraph'], { bundled }),
    );
    assert.deepEqual(result, { found: true, path: bundled, source: 'bundled' });
  });

  it('prefers the setting to the bundled binary', () => {
    const result = resolveServerPath(options([bundled, '/opt/sg/skillgraph'], { bundled, configured: '/opt/sg/skillgraph' }));
    assert.deepEqual(result, { found: true, path: '/opt/sg/skillgraph', source: 'setting' });
  });

  it('falls back to PATH when the package has no binary for this platform', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph'], { bundled }));
    assert.deepEqual(result, { found: true, path: '/usr/bin/skillgraph', source: 'PATH' });
    const missing = resolveServerPath(options([], { bundled }));
    assert.equal(missing.found, false);
    assert.equal(!missing.found && missing.tried[0], bundled);
  });

  it('knows where a platform package keeps the server', () => {
    assert.equal(bundledServerPath('/ext', 'linux'), '/ext/server/skillgraph');
    assert.equal(bundledServerPath('C:\\ext', 'win32'), 'C:\\ext\\server\\skillgraph.exe');
  });

  it('finds skillgraph on PATH, first entry first', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph', '/usr/local/bin/skillgraph']));
    assert.deepEqual(result, { found: true, path: '/usr/local/bin/skillgraph', source: 'PATH' });
  });

  it('falls back to ~/.cargo/bin when PATH has none', () => {
    const result = resolveServerPath(options(['/home/ada/.cargo/bin/skillgraph']));
    assert.deepEqual(result, { found: true, path: '/home/ada/.cargo/bin/skillgraph', source: 'cargo' });
  });

  it('honours CARGO_HOME for the fallback', () => {
    const result = resolveServerPath(
      options(['/opt/cargo/bin/skillgraph'], { env: { PATH: '/usr/bin', CARGO_HOME: '/opt/cargo' } }),
    );
    assert.deepEqual(result, { found: true, path: '/opt/cargo/bin/skillgraph', source: 'cargo' });
  });

  it('prefers PATH over ~/.cargo/bin', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph', '/home/ada/.cargo/bin/skillgraph']));
    assert.equal(result.found && result.path, '/usr/bin/skillgraph');
  });

  it('skips empty PATH entries rather than searching the current directory', () => {
    const result = resolveServerPath(options(['skillgraph'], { env: { PATH: ':/usr/bin' } }));
    assert.equal(result.found, false);
  });

  it('reports everything it tried when nothing is found', () => {
    const result = resolveServerPath(options([]));
    assert.deepEqual(result, {
      found: false,
      tried: ['/usr/local/bin/skillgraph', '/usr/bin/skillgraph', '/home/ada/.cargo/bin/skillgraph'],
    });
  });

  it('uses the configured absolute path', () => {
    const result = resolveServerPath(options(['/opt/sg/skillgraph', '/usr/bin/skillgraph'], { configured: '/opt/sg/skillgraph' }));
    assert.deepEqual(result, { found: true, path: '/opt/sg/skillgraph', source: 'setting' });
  });

  it('expands ~ and resolves relative paths against the workspace folder', () => {
    assert.deepEqual(resolveServerPath(options(['/home/ada/bin/skillgraph'], { configured: '~/bin/skillgraph' })), {
      found: true,
      path: '/home/ada/bin/skillgraph',
      source: 'setting',
    });
    const relative = options(['/repo/target/debug/skillgraph'], { configured: './target/debug/skillgraph', baseDir: '/repo' });
    assert.deepEqual(resolveServerPath(relative), { found: true, path: '/repo/target/debug/skillgraph', source: 'setting' });
  });

  it('looks a bare configured name up on PATH', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph-nightly'], { configured: 'skillgraph-nightly' }));
    assert.deepEqual(result, { found: true, path: '/usr/bin/skillgraph-nightly', source: 'setting' });
  });

  it('does not fall back when the configured path is missing', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph'], { configured: '/nope/skillgraph' }));
    assert.deepEqual(result, { found: false, configured: '/nope/skillgraph', tried: ['/nope/skillgraph'] });
  });

  it('treats a blank setting as unset', () => {
    const result = resolveServerPath(options(['/usr/bin/skillgraph'], { configured: '   ' }));
    assert.equal(result.found && result.source, 'PATH');
  });

  it('finds skillgraph.exe on a Windows Path via PATHEXT', () => {
    const result = resolveServerPath({
      env: { Path: 'C:\\tools;C:\\bin', PATHEXT: '.COM;.EXE' },
      platform: 'win32',
      homeDir: 'C:\\Users\\ada',
      isExecutable: (c) => c === 'C:\\bin\\skillgraph.exe',
    });
    assert.deepEqual(result, { found: true, path: 'C:\\bin\\skillgraph.exe', source: 'PATH' });
  });

  it('finds the cargo fallback on Windows', () => {
    const result = resolveServerPath({
      env: { Path: '' },
      platform: 'win32',
      homeDir: 'C:\\Users\\ada',
      isExecutable: (c) => c === 'C:\\Users\\ada\\.cargo\\bin\\skillgraph.exe',
    });
    assert.equal(result.found && result.source, 'cargo');
  });

  it('checks real files by default: a directory is not an executable', () => {
    // process.execPath is a real executable; its folder is not.
    const node = process.execPath;
    const result = resolveServerPath({ configured: node, env: {}, platform: process.platform, homeDir: '/' });
    assert.deepEqual(result, { found: true, path: node, source: 'setting' });
    const folder = resolveServerPath({ configured: __dirname, env: {}, platform: process.platform, homeDir: '/' });
    assert.equal(folder.found, false);
  });
});

describe('missingServerMessage', () => {
  it('says how to install the server', () => {
    const message = missingServerMessage({ found: false, tried: [] });
    assert.match(message, /could not find the `skillgraph` language server/);
    assert.match(message, /cargo install --path server/);
    assert.match(message, /skillgraph\.server\.path/);
  });

  it('names the configured path that failed', () => {
    const message = missingServerMessage({ found: false, configured: '/nope/skillgraph', tried: ['/nope/skillgraph'] });
    assert.match(message, /`\/nope\/skillgraph` set in `skillgraph\.server\.path` was not found/);
    assert.match(message, /cargo install --path server/);
  });
});

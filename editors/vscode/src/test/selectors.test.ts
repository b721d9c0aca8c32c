// Document selectors: skillgraph gets SKILL.md, SwarmKit YAML and its config, and nothing else.
//
// VS Code's own glob matcher cannot be loaded outside VS Code; minimatch with `dot: true` follows
// the same rules for the features these patterns use (`**`, `{a,b}` groups, dot folders).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minimatch } from 'minimatch';
import { documentSelector, SWARMKIT_ARTIFACT_DIRS } from '../selectors';

function claimed(file: string): boolean {
  return documentSelector().some((filter) => minimatch(file, filter.pattern, { dot: true }));
}

describe('documentSelector', () => {
  it('only uses file patterns, never a whole language', () => {
    for (const filter of documentSelector()) {
      assert.equal(filter.scheme, 'file');
      assert.ok(filter.pattern.startsWith('**/'), filter.pattern);
      assert.equal('language' in filter, false);
    }
  });

  for (const file of [
    '/repo/skills/pdf/SKILL.md',
    '/repo/.claude/skills/review/SKILL.md',
    '/repo/.github/skills/x/SKILL.md',
    '/repo/ws/workspace.yaml',
    '/repo/ws/workspace.yml',
    '/repo/ws/workspace.env.yaml',
    '/repo/ws/workspace.env.staging.yaml',
    '/repo/ws/topologies/hello.yaml',
    '/repo/ws/skills/search-code.yml',
    '/repo/ws/skills/nested/say-hello.yaml',
    '/repo/skillgraph.toml',
    '/repo/plugins/deploy/.claude-plugin/plugin.json',
    '/repo/.claude-plugin/marketplace.json',
    '/repo/.github/plugin/marketplace.json',
    ...SWARMKIT_ARTIFACT_DIRS.map((dir) => `/repo/ws/${dir}/a.yaml`),
  ]) {
    it(`claims ${file}`, () => assert.ok(claimed(file)));
  }

  for (const file of [
    '/repo/README.md',
    '/repo/skills/pdf/skill.md',
    '/repo/skills/pdf/reference.md',
    '/repo/.github/workflows/ci.yaml',
    '/repo/docker-compose.yml',
    '/repo/ws/topologies/notes.txt',
    '/repo/Cargo.toml',
    '/repo/package.json',
    '/repo/.claude-plugin/notes.json',
  ]) {
    it(`leaves ${file} to other extensions`, () => assert.equal(claimed(file), false));
  }
});

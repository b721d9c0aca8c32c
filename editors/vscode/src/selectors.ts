// Which documents the extension hands to the skillgraph server.
//
// Every filter is a file pattern, never a bare language id: claiming `yaml` or `markdown`
// wholesale would send every YAML and Markdown file to skillgraph, and the point is to sit beside
// yaml-language-server and the Markdown extensions, not to replace them. No `vscode` import, so
// the patterns can be unit tested. The server's table of the files it reads
// (`server/src/index/classify.rs`, `OUR_FILES`) is checked against these patterns by a test there.

/** The artifact directories of a SwarmKit workspace (SPEC §2). */
export const SWARMKIT_ARTIFACT_DIRS = [
  'topologies',
  'skills',
  'archetypes',
  'triggers',
  'schedules',
  'funnels',
  'contracts',
  'roles',
  'adapters',
] as const;

/** The shape of `vscode.DocumentFilter` that we use; structurally assignable to it. */
export interface PatternFilter {
  readonly scheme: 'file';
  readonly pattern: string;
}

export function documentSelector(): PatternFilter[] {
  // These patterns over-approximate on purpose (an Ansible `roles/` directory matches too): only
  // the server knows where SwarmKit workspaces are, and it publishes nothing for a YAML file that
  // is in none (SPEC §2).
  return [
    { scheme: 'file', pattern: '**/SKILL.md' },
    { scheme: 'file', pattern: `**/{${SWARMKIT_ARTIFACT_DIRS.join(',')}}/**/*.{yaml,yml}` },
    { scheme: 'file', pattern: '**/workspace.{yaml,yml}' },
    // The property files `${…}` references read (`.yaml` only, as the runtime reads them).
    { scheme: 'file', pattern: '**/workspace.env.yaml' },
    { scheme: 'file', pattern: '**/workspace.env.*.yaml' },
    { scheme: 'file', pattern: '**/skillgraph.toml' },
    // Plugin and marketplace manifests (their paths are links, their mistakes diagnostics).
    { scheme: 'file', pattern: '**/.claude-plugin/{plugin,marketplace}.json' },
    { scheme: 'file', pattern: '**/.github/plugin/marketplace.json' },
  ];
}

// The client side of "Show ordering graph": the server (`workspace/executeCommand` with
// `skillgraph.orderingGraph`) draws the `requires:` ordering rules as Mermaid; the extension puts
// that text in a Markdown document and opens its preview. No `vscode` import, for unit tests.

/** The VS Code command, in the palette and for code lenses. */
export const SHOW_ORDERING_GRAPH_COMMAND = 'skillgraph.showOrderingGraph';
/** The server's command. */
export const ORDERING_GRAPH_SERVER_COMMAND = 'skillgraph.orderingGraph';

export interface OrderingGraphArgument {
  /** The document whose workspace is drawn. */
  uri: string;
  /** One agent's graph, or `null` for every agent of the document's workspace. */
  agent: string | null;
}

/**
 * The server command's argument. A code lens may pass `{uri, agent}` (or just an agent id); from
 * the palette, the active document and no agent.
 */
export function orderingGraphArgument(passed: unknown, activeUri: string | undefined): OrderingGraphArgument | undefined {
  let uri = activeUri;
  let agent: string | null = null;
  if (typeof passed === 'string') {
    agent = passed;
  } else if (passed !== null && typeof passed === 'object') {
    const given = passed as { uri?: unknown; agent?: unknown };
    if (typeof given.uri === 'string') uri = given.uri;
    if (typeof given.agent === 'string') agent = given.agent;
  }
  return uri === undefined ? undefined : { uri, agent };
}

/** The Markdown document shown: a heading and the graph in a fenced ```mermaid block. */
export function orderingGraphMarkdown(mermaid: string, argument: OrderingGraphArgument): string {
  const what = argument.agent === null ? 'every agent' : `agent \`${argument.agent}\``;
  // A fence longer than any backtick run in the text, so the text cannot close it early.
  const longest = Math.max(0, ...Array.from(mermaid.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = mermaid.endsWith('\n') ? mermaid : `${mermaid}\n`;
  return `# Ordering graph: ${what}\n\n${fence}mermaid\n${body}${fence}\n`;
}

/** What went wrong with the server's answer, or `undefined` when it is a Mermaid text. */
export function badGraphAnswer(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer.trim() === '' ? 'the server returned an empty graph' : undefined;
  if (answer === null || answer === undefined) return 'the server returned no graph';
  return `the server returned ${typeof answer}, not Mermaid text`;
}

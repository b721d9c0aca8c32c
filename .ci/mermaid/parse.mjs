// Parses each file named on the command line with Mermaid's own parser (mermaid.parse), under
// Node with a jsdom window standing in for the browser. Exit status 1 when any file is refused.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const name of ['Element', 'HTMLElement', 'Node', 'DOMParser', 'SVGElement']) {
  if (!(name in globalThis)) globalThis[name] = dom.window[name];
}
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let refused = 0;
for (const path of process.argv.slice(2)) {
  try {
    const result = await mermaid.parse(readFileSync(path, 'utf8'));
    console.log(`${path}: ${result.diagramType}`);
  } catch (error) {
    refused += 1;
    console.log(`${path}: refused: ${error?.message ?? String(error)}`);
  }
}
process.exit(refused > 0 ? 1 : 0);

// The client side of "Show ordering graph": the argument sent to the server and the Markdown
// document built from its answer.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badGraphAnswer, orderingGraphArgument, orderingGraphMarkdown } from '../orderingGraph';

describe('orderingGraphArgument', () => {
  const active = 'file:///ws/topologies/estate.yaml';

  it('uses the active document and every agent from the palette', () => {
    assert.deepEqual(orderingGraphArgument(undefined, active), { uri: active, agent: null });
  });

  it('takes the uri and agent a code lens passes', () => {
    assert.deepEqual(orderingGraphArgument({ uri: 'file:///ws/t.yaml', agent: 'estate-engineer' }, active), {
      uri: 'file:///ws/t.yaml',
      agent: 'estate-engineer',
    });
    assert.deepEqual(orderingGraphArgument('reviewer', active), { uri: active, agent: 'reviewer' });
    assert.deepEqual(orderingGraphArgument({ agent: 7 }, active), { uri: active, agent: null });
  });

  it('has nothing to ask without a document', () => {
    assert.equal(orderingGraphArgument(undefined, undefined), undefined);
  });
});

describe('orderingGraphMarkdown', () => {
  it('puts the Mermaid text in a mermaid fence under a heading', () => {
    assert.equal(
      orderingGraphMarkdown('flowchart TD\n  a --> b', { uri: 'file:///t.yaml', agent: 'writer' }),
      '# Ordering graph: agent `writer`\n\n```mermaid\nflowchart TD\n  a --> b\n```\n',
    );
  });

  it('uses a fence the text cannot close', () => {
    const markdown = orderingGraphMarkdown('flowchart TD\n  a["```"] --> b\n', { uri: 'file:///t.yaml', agent: null });
    assert.match(markdown, /^# Ordering graph: every agent\n\n````mermaid\n/);
    assert.ok(markdown.endsWith('\n````\n'));
  });
});

describe('badGraphAnswer', () => {
  it('accepts text and names what else came back', () => {
    assert.equal(badGraphAnswer('flowchart TD'), undefined);
    assert.match(badGraphAnswer('  ') ?? '', /empty/);
    assert.match(badGraphAnswer(null) ?? '', /no graph/);
    assert.match(badGraphAnswer({ nodes: [] }) ?? '', /object/);
  });
});

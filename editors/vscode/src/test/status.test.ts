// The status bar item's states, and how the server's indexing progress moves between them.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterProgress, RESTART_COMMAND, ServerState, SHOW_OUTPUT_COMMAND, statusView } from '../status';

describe('statusView', () => {
  it('spins while starting and indexing, and opens the log on click', () => {
    for (const state of [{ kind: 'starting' }, { kind: 'indexing', message: 'indexing the workspace' }] as ServerState[]) {
      const view = statusView(state);
      assert.match(view.text, /^\$\(sync~spin\) skillgraph/);
      assert.equal(view.command, SHOW_OUTPUT_COMMAND);
      assert.equal(view.error, false);
    }
    assert.equal(statusView({ kind: 'indexing', percentage: 41.6 }).text, '$(sync~spin) skillgraph 42%');
    assert.equal(statusView({ kind: 'indexing', message: 'reading' }).tooltip, 'skillgraph: indexing: reading');
  });

  it('says ready with what the server reported', () => {
    const view = statusView({ kind: 'ready', message: '12 files indexed' });
    assert.equal(view.text, '$(check) skillgraph');
    assert.match(view.tooltip, /ready \(12 files indexed\)/);
  });

  it('offers a restart when the server failed or stopped', () => {
    const failed = statusView({ kind: 'failed', reason: 'the server stopped' });
    assert.equal(failed.command, RESTART_COMMAND);
    assert.equal(failed.error, true);
    assert.match(failed.tooltip, /the server stopped\. Click to restart/);
    assert.equal(statusView({ kind: 'stopped' }).command, RESTART_COMMAND);
  });
});

describe('afterProgress', () => {
  it('goes indexing on begin, keeps the message on a bare report, and ready on end', () => {
    let state: ServerState = { kind: 'starting' };
    state = afterProgress(state, { kind: 'begin', title: 'skillgraph', message: 'indexing the workspace' });
    assert.deepEqual(state, { kind: 'indexing', message: 'indexing the workspace', percentage: undefined });
    state = afterProgress(state, { kind: 'report', percentage: 50 });
    assert.deepEqual(state, { kind: 'indexing', message: 'indexing the workspace', percentage: 50 });
    state = afterProgress(state, { kind: 'end', message: '3 files indexed' });
    assert.deepEqual(state, { kind: 'ready', message: '3 files indexed' });
  });

  it('does not hide a failure behind a late progress notification', () => {
    const failed: ServerState = { kind: 'failed', reason: 'the server stopped' };
    assert.equal(afterProgress(failed, { kind: 'end' }), failed);
  });
});

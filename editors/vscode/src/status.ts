// What the status bar item says about the server. No `vscode` import, so the states can be unit
// tested; extension.ts applies them to a real StatusBarItem.

export type ServerState =
  | { kind: 'starting' }
  | { kind: 'indexing'; message?: string; percentage?: number }
  | { kind: 'ready'; message?: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'stopped' };

export interface StatusView {
  text: string;
  tooltip: string;
  /** The command a click runs. */
  command: string;
  /** Shown with the error background. */
  error: boolean;
}

export const RESTART_COMMAND = 'skillgraph.restartServer';
export const SHOW_OUTPUT_COMMAND = 'skillgraph.showOutput';

export function statusView(state: ServerState): StatusView {
  switch (state.kind) {
    case 'starting':
      return view('$(sync~spin) skillgraph', 'skillgraph: starting the server', SHOW_OUTPUT_COMMAND);
    case 'indexing': {
      const percent = state.percentage === undefined ? '' : ` ${Math.round(state.percentage)}%`;
      const detail = state.message ? `: ${state.message}` : '';
      return view(`$(sync~spin) skillgraph${percent}`, `skillgraph: indexing${detail}`, SHOW_OUTPUT_COMMAND);
    }
    case 'ready':
      return view(
        '$(check) skillgraph',
        `skillgraph: ready${state.message ? ` (${state.message})` : ''}. Click for the log.`,
        SHOW_OUTPUT_COMMAND,
      );
    case 'failed':
      return { ...view('$(error) skillgraph', `skillgraph: ${state.reason}. Click to restart the server.`, RESTART_COMMAND), error: true };
    case 'stopped':
      return view('$(circle-slash) skillgraph', 'skillgraph: the server is stopped. Click to restart it.', RESTART_COMMAND);
  }
}

function view(text: string, tooltip: string, command: string): StatusView {
  return { text, tooltip, command, error: false };
}

/** The `$/progress` payloads of LSP work-done progress, as far as the status reads them. */
export type WorkDoneProgress =
  | { kind: 'begin'; title?: string; message?: string; percentage?: number }
  | { kind: 'report'; message?: string; percentage?: number }
  | { kind: 'end'; message?: string };

/** The state after a progress notification of the server's indexing. */
export function afterProgress(state: ServerState, progress: WorkDoneProgress): ServerState {
  if (state.kind === 'failed' || state.kind === 'stopped') return state;
  switch (progress.kind) {
    case 'begin':
      return { kind: 'indexing', message: progress.message, percentage: progress.percentage };
    case 'report':
      return {
        kind: 'indexing',
        message: progress.message ?? (state.kind === 'indexing' ? state.message : undefined),
        percentage: progress.percentage,
      };
    case 'end':
      return { kind: 'ready', message: progress.message };
  }
}

import type { ReconcileResult } from '../../index.js';
import type { CliIo } from '../io.js';
import { painter } from '../style.js';

/** What `reconcile` tells its progress display; it shows nothing unless stderr is a terminal. */
export interface ProgressDisplay {
  /** One more result was printed. */
  add(result: ReconcileResult, describeError: (error: unknown) => string): void;
  /** How many ids there are, once known (at the end of standard input, or counted from a file). */
  setTotal(total: number): void;
  /** Replaces the progress line with the summary line. */
  finish(): void;
  /** Removes the progress line, e.g. before an error is printed. */
  clear(): void;
}

/** Often enough to look live, rarely enough that a fast run is not slowed by drawing. */
const REDRAW_MS = 100;
/** Back to the start of the line and erase it: the line is redrawn in place. */
const CLEAR_LINE = '\r\x1b[2K';

const NO_DISPLAY: ProgressDisplay = { add() {}, setTotal() {}, finish() {}, clear() {} };

/**
 * A one-line progress display on stderr (count, rate, errors and, once the total is known, ETA)
 * redrawn in place, then a summary line. When stderr is not a terminal it does nothing at all,
 * so piped or logged output is exactly the JSON lines.
 */
export function progressDisplay(io: CliIo, now: () => number = () => performance.now()): ProgressDisplay {
  const terminal = io.stderrTerminal;
  if (terminal === undefined) return NO_DISPLAY;
  const paint = painter(io, 'stderr');
  const started = now();
  let done = 0;
  let failed = 0;
  let firstError: string | undefined;
  let total: number | undefined;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let shown = false;

  const errors = () => {
    const text = `${count(failed)} ${failed === 1 ? 'error' : 'errors'}`;
    return failed > 0 ? paint('red', text) : text;
  };
  const draw = () => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const parts = [
      total === undefined
        ? `${count(done)} read`
        : `${count(done)} of ${count(total)} (${percent(done, total)})`,
      `${perSecond(rate)}/s`,
      errors(),
    ];
    if (total !== undefined && rate > 0) parts.push(`ETA ${duration((total - done) / rate)}`);
    // A line wider than the terminal wraps, and `\r` could then not redraw it.
    io.err(`${CLEAR_LINE}${fitToWidth(`reconcile  ${parts.join('  ')}`, terminal.columns - 1)}`);
    drawnAt = now();
    shown = true;
  };
  const clear = () => {
    if (shown) io.err(CLEAR_LINE);
    shown = false;
  };

  return {
    add(result, describeError) {
      done++;
      if (result.error !== undefined) {
        failed++;
        firstError ??= describeError(result.error);
      }
      if (now() - drawnAt >= REDRAW_MS) draw();
    },
    setTotal(value) {
      total = value;
    },
    finish() {
      clear();
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 ? ` (${perSecond(done / seconds)}/s)` : '';
      const summary = `reconciled ${count(done)} ${done === 1 ? 'id' : 'ids'} in ${seconds.toFixed(1)} s${rate}: ${count(done - failed)} read, ${errors()}`;
      io.err(`${summary}${firstError === undefined ? '' : ` (first: ${firstError})`}\n`);
    },
    clear,
  };
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function percent(part: number, whole: number): string {
  return `${whole === 0 ? 100 : Math.floor((part / whole) * 100)}%`;
}

function perSecond(rate: number): string {
  return rate >= 10 ? count(Math.round(rate)) : rate.toFixed(1);
}

/** `42 s`, `3:07`, `1:02:09`. */
function duration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Cuts `line` to `width` visible characters; colour codes do not count, and a cut one is closed. */
function fitToWidth(line: string, width: number): string {
  let visible = 0;
  let cut = '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC.
  for (const match of line.matchAll(/\x1b\[[0-9;]*m|[^\x1b]/gu)) {
    const piece = match[0];
    if (piece.startsWith('\x1b')) cut += piece;
    else if (visible < width) {
      cut += piece;
      visible++;
    }
  }
  return cut;
}

import * as util from 'node:util';
import type { CliIo } from './io.js';

/** The few styles the command line uses. */
export type Style = 'red' | 'green' | 'yellow' | 'dim' | 'bold';

/** Returns `text` styled for the stream it is written to, or as it is. */
export type Paint = (style: Style, text: string) => string;

type StyleText = (style: Style, text: string, options?: { validateStream?: boolean }) => string;

/** No styling: what every stream gets when colours are off. */
export const plain: Paint = (_style, text) => text;

/**
 * Colours for one stream: only on a terminal, never with `NO_COLOR` set (https://no-color.org)
 * or `TERM=dumb`, and only where Node has `util.styleText` (20.12 and later); otherwise plain
 * text. The decision is made here from `io`, so `styleText` is told not to check the stream again.
 */
export function painter(io: CliIo, stream: 'stdout' | 'stderr'): Paint {
  const styleText = (util as { styleText?: StyleText }).styleText;
  const terminal = stream === 'stdout' ? io.stdoutIsTerminal === true : io.stderrTerminal !== undefined;
  if (!terminal || typeof styleText !== 'function' || io.env.NO_COLOR || io.env.TERM === 'dumb') return plain;
  return (style, text) => styleText(style, text, { validateStream: false });
}

import { CONTROL_KEY_HEADER, CONTROL_PREFIX } from '../../testing/index.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { StringOption } from './command.js';

/** `--base-url URL` of the sandbox-control commands. */
export const SANDBOX_URL_OPTION = {
  type: 'string',
  value: 'URL',
  help: 'base URL of the running sandbox (default: $WALLET_BASE_URL)',
} as const satisfies StringOption;

/** The environment of the sandbox-control commands, for their help. */
export const CONTROL_ENVIRONMENT = {
  WALLET_SANDBOX_KEY: 'control key the sandbox banner prints (required)',
  WALLET_BASE_URL: 'base URL of the running sandbox, unless --base-url is given',
};

/** A request to the control API: method, path after `/_sandbox` and JSON body. */
export interface ControlRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /** How long to wait for the answer. @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * Sends one request to the control API of a running sandbox and returns its JSON answer.
 * The key comes from `WALLET_SANDBOX_KEY` only, never a flag.
 * @throws {CliError} naming what to fix: the variable to set, the sandbox to start, or the
 *   sandbox's own explanation of a refused operation.
 */
export async function callControl(io: CliIo, baseUrl: string | undefined, request: ControlRequest) {
  const key = io.env.WALLET_SANDBOX_KEY;
  if (!key)
    throw new CliError('WALLET_SANDBOX_KEY is not set: export the control key the sandbox banner prints');
  const base = baseUrl ?? io.env.WALLET_BASE_URL;
  if (!base) throw new CliError('WALLET_BASE_URL is not set: export the sandbox base URL or pass --base-url');
  if (!URL.canParse(base))
    throw new CliError('the sandbox base URL (--base-url or WALLET_BASE_URL) must be an absolute URL');
  const url = `${base.replace(/\/+$/, '')}${CONTROL_PREFIX}${request.path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers: { [CONTROL_KEY_HEADER]: key, 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? String(error);
    throw new CliError(
      `cannot reach the sandbox at ${new URL(base).host} (${why}): is "merchant-wallet sandbox" running?`,
    );
  }
  const text = await response.text();
  let answer: { error?: string; message?: string } & Record<string, unknown>;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new CliError(
      `${new URL(base).host} answered HTTP ${response.status} without JSON: is it a sandbox?`,
    );
  }
  if (response.status === 401)
    throw new CliError('the sandbox refused WALLET_SANDBOX_KEY: use the key its banner prints');
  if (response.status === 404 && answer.error === 'not_found' && request.path !== '') {
    throw new CliError(
      `${answer.message ?? 'not found'} (is the control API on? start the sandbox with the CLI)`,
    );
  }
  if (!response.ok) throw new CliError(answer.message ?? `the sandbox answered HTTP ${response.status}`);
  return answer;
}

/** Runs a control request and prints its answer: `line(answer)` when given, else the JSON. */
export async function control(
  io: CliIo,
  baseUrl: string | undefined,
  request: ControlRequest,
  line?: (answer: Record<string, unknown>) => string,
): Promise<number> {
  const answer = await callControl(io, baseUrl, request);
  io.out(line ? `${line(answer)}\n` : `${JSON.stringify(answer, null, 2)}\n`);
  return 0;
}

/** The options every sandbox-control command takes. */
export const common = { 'base-url': SANDBOX_URL_OPTION } as const;
/** A control path from its segments, each escaped. */
export const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;

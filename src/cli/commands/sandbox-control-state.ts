import { readFile } from 'node:fs/promises';
import { CliError, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { defineCommand } from './command.js';
import { checkBalance } from './sandbox-arguments.js';
import {
  CONTROL_ENVIRONMENT,
  type ControlRequest,
  callControl,
  common,
  control,
} from './sandbox-control-client.js';

async function readStream(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin) text += String(chunk);
  return text;
}

/** `sandbox balance`: sets one balance. */
export const balance = defineCommand({
  name: 'sandbox balance',
  summary: 'set a balance in a running sandbox',
  description: `Sets a merchant's (--app), a user's wallet (--email) or a user's provider account
(--email and --provider) balance in CURRENCY to AMOUNT.`,
  options: {
    app: { type: 'string', value: 'APP_ID', help: 'a merchant' },
    email: { type: 'string', value: 'EMAIL', help: 'a user' },
    provider: { type: 'string', value: 'NAME', help: "with --email: the user's account at this provider" },
    ...common,
  },
  positionals: { name: 'currency and amount', usage: '<currency> <amount>', min: 2, max: 2 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [currency, amount = ''] }, io) => {
    const value = checkBalance(amount, 'amount', 'sandbox balance');
    if ((o.app === undefined) === (o.email === undefined))
      throw new UsageError('name exactly one of --app APP_ID and --email EMAIL', 'sandbox balance');
    if (o.provider !== undefined && o.email === undefined)
      throw new UsageError('--provider goes with --email', 'sandbox balance');
    const body = { appId: o.app, email: o.email, provider: o.provider, currency, amount: value };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/balances', body },
      () => `${o.app ?? o.email}${o.provider ? ` at ${o.provider}` : ''}: ${currency} ${amount}`,
    );
  },
});

/** `sandbox user`: adds or replaces a user. */
export const user = defineCommand({
  name: 'sandbox user',
  summary: 'add or replace a user in a running sandbox',
  description: `Reads a user as JSON (the seed's user shape: email, balances, providers, ...)
from FILE or stdin (-) and adds it, or replaces the user with that e-mail.
With --token-for APP_ID also issues a token for that app and prints it.`,
  options: {
    'token-for': { type: 'string', value: 'APP_ID', help: 'issue a token for this app' },
    ...common,
  },
  positionals: { name: 'user file', usage: '<file|->', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: async ({ options: o, positionals: [file = '-'] }, io) => {
    const text =
      file === '-'
        ? await readStream(io)
        : await readFile(file, 'utf8').catch(() => {
            throw new CliError(`cannot read ${file}`);
          });
    let body: { email?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new CliError(`${file === '-' ? 'stdin' : file} is not JSON`);
    }
    await callControl(io, o['base-url'], { method: 'POST', path: '/users', body });
    if (o['token-for'] === undefined) {
      io.out(`user ${body.email} saved\n`);
      return 0;
    }
    const tokenBody = { email: body.email, appId: o['token-for'] };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/tokens', body: tokenBody },
      (a) => `user ${body.email} saved; token ${a.token}`,
    );
  },
});

/** `sandbox fault`: injects or clears faults. */
export const fault = defineCommand({
  name: 'sandbox fault',
  summary: 'inject a fault into a running sandbox',
  description: `Injects the fault given as JSON (docs/sandbox.md, "Faults"), e.g.
'{"kind":"error","code":"psp_error","route":"deposit"}'; --clear removes every fault.`,
  options: { clear: { type: 'boolean', help: 'remove every fault instead' }, ...common },
  positionals: { name: 'fault', usage: '[json]', min: 0, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [json] }, io) => {
    if (o.clear === (json !== undefined))
      throw new UsageError('give a fault as JSON or --clear', 'sandbox fault');
    if (o.clear)
      return control(io, o['base-url'], { method: 'DELETE', path: '/faults' }, () => 'faults cleared');
    let body: unknown;
    try {
      body = JSON.parse(json ?? '');
    } catch {
      throw new UsageError('the fault is not JSON', 'sandbox fault');
    }
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/faults', body },
      (a) => `fault armed; ${a.pending} armed in all`,
    );
  },
});

/** Commands that only read: the answer is printed as JSON. */
export const readCommand = (
  name: string,
  summary: string,
  description: string,
  request: ControlRequest,
  line?: (a: Record<string, unknown>) => string,
) =>
  defineCommand({
    name: `sandbox ${name}`,
    summary,
    description,
    options: common,
    positionals: { name: 'arguments', min: 0, max: 0 },
    environment: CONTROL_ENVIRONMENT,
    run: ({ options: o }, io) => control(io, o['base-url'], request, line),
  });

/** `sandbox revoke`: ends a user's tokens, as the user revoking the app in the wallet does. */
export const revoke = defineCommand({
  name: 'sandbox revoke',
  summary: "revoke a user's tokens in a running sandbox",
  description: `Ends the tokens of the user with --email (for --app APP_ID only, when given), or the one
token --token, as a user revoking the app in the wallet app does: deposits and provider listings
with them get application_not_authorized until the user approves the app again on the login page.
The token is never printed back.`,
  options: {
    email: { type: 'string', value: 'EMAIL', help: "end this user's tokens" },
    app: { type: 'string', value: 'APP_ID', help: "with --email: only the user's token for this app" },
    token: { type: 'string', value: 'TOKEN', help: 'end this one token' },
    ...common,
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o }, io) => {
    if ((o.email === undefined) === (o.token === undefined))
      throw new UsageError('name exactly one of --email EMAIL and --token TOKEN', 'sandbox revoke');
    if (o.app !== undefined && o.email === undefined)
      throw new UsageError('--app goes with --email', 'sandbox revoke');
    const body = o.token === undefined ? { email: o.email, appId: o.app } : { token: o.token };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/tokens/revoke', body },
      (a) =>
        `${a.email}: ${a.revoked} token(s) revoked${o.app ? ` for ${o.app}` : ''}; requests with them now get application_not_authorized`,
    );
  },
});

import { DELIVERY_MODES, type DeliveryMode } from '../../testing/index.js';
import { UsageError } from '../errors.js';
import { type Command, defineCommand } from './command.js';
import { checkDuration, checkHttpUrl } from './sandbox-arguments.js';
import { CONTROL_ENVIRONMENT, common, control, path } from './sandbox-control-client.js';
import { balance, fault, readCommand, revoke, user } from './sandbox-control-state.js';
import { forge } from './sandbox-forge.js';
import { webhookRetriesCommand } from './sandbox-retries.js';

const DELIVERY_OPTION = {
  type: 'choice',
  value: 'MODE',
  choices: DELIVERY_MODES as DeliveryMode[],
  help: 'how the webhook is delivered',
} as const;
const DELAY_OPTION = {
  type: 'string',
  value: 'DURATION',
  help: 'how long late and out-of-order deliveries are held, e.g. 30s (default: 60s)',
} as const;

/** The `delivery` field of a body, from `--delivery` and `--delay` (checked for `command`). */
function plan(
  mode: DeliveryMode | undefined,
  rawDelay: string | undefined,
  command: string,
): object | undefined {
  const delay = checkDuration(rawDelay, '--delay', command);
  if (mode === undefined) return delay === undefined ? undefined : { mode: 'late', delayMs: delay };
  return delay === undefined ? { mode } : { mode, delayMs: delay };
}

const settle = defineCommand({
  name: 'sandbox settle',
  summary: 'end a pending deposit in a running sandbox',
  description: `Settles a pending deposit as completed (or --status failed with --reason) and
sends its result webhook, optionally delivered twice, late, out of order or not at all.`,
  options: {
    status: {
      type: 'choice',
      value: 'STATUS',
      choices: ['completed', 'failed'],
      default: 'completed',
      help: 'how it ends',
    },
    reason: { type: 'string', value: 'TEXT', help: 'failure_reason of a failed deposit' },
    delivery: DELIVERY_OPTION,
    delay: DELAY_OPTION,
    ...common,
  },
  positionals: { name: 'transaction id', usage: '<transaction_id>', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [id = ''] }, io) => {
    if (o.reason !== undefined && o.status !== 'failed')
      throw new UsageError('--reason goes with --status failed', 'sandbox settle');
    const body = {
      status: o.status,
      failure_reason: o.reason,
      delivery: plan(o.delivery, o.delay, 'sandbox settle'),
    };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: `${path('transactions', id)}/settle`, body },
      (a) => {
        const tx = a.transaction as {
          transaction_id: string;
          transaction_status: string;
          failure_reason: string | null;
        };
        return `${tx.transaction_id} ${tx.transaction_status}${tx.failure_reason ? ` (${tx.failure_reason})` : ''}`;
      },
    );
  },
});

const advance = defineCommand({
  name: 'sandbox advance',
  summary: "move a running sandbox's clock forward",
  description: `Moves the sandbox clock forward by DURATION (30s, 1500ms, 5m, 2h) and runs at once
every settlement and held-back webhook due in that time.`,
  options: common,
  positionals: { name: 'duration', usage: '<duration>', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [rawBy] }, io) => {
    const by = checkDuration(rawBy, '<duration>', 'sandbox advance');
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/clock/advance', body: { by } },
      (a) => `clock ${a.now} (+${a.offset_ms} ms); ${a.ran} timed event(s) ran, ${a.pending} waiting`,
    );
  },
});

const webhookUrl = defineCommand({
  name: 'sandbox webhook-url',
  summary: 'set where a running sandbox sends webhooks',
  description: `Sets the merchant's webhook URL for user_authorized and deposit results
(--deposit-webhook-url for deposit results when they differ).`,
  options: {
    'deposit-webhook-url': { type: 'string', value: 'URL', help: 'deposit results go here instead' },
    app: { type: 'string', value: 'APP_ID', default: 'app_demo_shop', help: 'the merchant' },
    ...common,
  },
  positionals: { name: 'webhook URL', usage: '<url>', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [rawUrl] }, io) => {
    const url = checkHttpUrl(rawUrl, '<url>', 'sandbox webhook-url');
    const deposit = checkHttpUrl(o['deposit-webhook-url'], '--deposit-webhook-url', 'sandbox webhook-url');
    const body = { authWebhookUrl: url, depositWebhookUrl: deposit ?? url };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: path('merchants', o.app), body },
      () => `${o.app}: user_authorized → ${body.authWebhookUrl}, deposit results → ${body.depositWebhookUrl}`,
    );
  },
});

const redeliver = defineCommand({
  name: 'sandbox redeliver',
  summary: 'send a webhook of a running sandbox again',
  description: 'Posts the body of delivery <delivery_id> (see "sandbox webhooks") again to its URL.',
  options: { delivery: DELIVERY_OPTION, delay: DELAY_OPTION, ...common },
  positionals: { name: 'delivery id', usage: '<delivery_id>', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [id = ''] }, io) =>
    control(
      io,
      o['base-url'],
      {
        method: 'POST',
        path: `${path('webhooks', id)}/redeliver`,
        body: plan(o.delivery ?? 'deliver', o.delay, 'sandbox redeliver'),
      },
      (a) => `redelivering as ${(a.delivery as { id: string }).id}`,
    ),
});

const nextWebhook = defineCommand({
  name: 'sandbox next-webhook',
  summary: 'make the next webhooks of a running sandbox misbehave',
  description: `Applies MODE (twice, late, out-of-order, drop) to the next --count webhooks the
sandbox sends, of --event only when given.`,
  options: {
    count: { type: 'integer', value: 'N', min: 1, max: 1_000, default: 1, help: 'how many webhooks' },
    event: {
      type: 'choice',
      value: 'EVENT',
      choices: ['transaction', 'user_authorized'],
      help: 'only this event',
    },
    delay: DELAY_OPTION,
    ...common,
  },
  positionals: { name: 'delivery mode', usage: `<${DELIVERY_MODES.join('|')}>`, min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [mode] }, io) => {
    const body = {
      ...plan(mode as DeliveryMode, o.delay, 'sandbox next-webhook'),
      count: o.count,
      event: o.event,
    };
    return control(
      io,
      o['base-url'],
      { method: 'POST', path: '/webhooks/plan', body },
      () => `next ${o.count} ${o.event ?? 'webhook'}(s): ${mode}`,
    );
  },
});

/** Every `merchant-wallet sandbox <action>` command, which drive a running sandbox over HTTP. */
export const SANDBOX_CONTROL_COMMANDS: readonly Command[] = [
  settle,
  advance,
  webhookUrl,
  readCommand(
    'webhooks',
    'print the webhook delivery log of a running sandbox',
    'Prints every webhook delivery, with its attempts, as JSON.',
    { method: 'GET', path: '/webhooks' },
  ),
  redeliver,
  nextWebhook,
  webhookRetriesCommand,
  forge,
  readCommand(
    'ledger',
    'print the transactions and balances of a running sandbox',
    'Prints every transaction, every balance and the totals per currency as JSON.',
    { method: 'GET', path: '/ledger' },
  ),
  balance,
  user,
  revoke,
  fault,
  readCommand(
    'reset',
    'reset a running sandbox to its seed',
    'Restores the seed: balances, users, tokens, merchant settings; forgets transactions, deliveries, faults and timed events.',
    { method: 'POST', path: '/reset' },
    () => 'sandbox reset to its seed',
  ),
];

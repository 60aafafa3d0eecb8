import { defineCommand } from './command.js';
import { parseSchedule, WEBHOOK_ATTEMPTS_OPTION, WEBHOOK_SCHEDULE_OPTION } from './sandbox-arguments.js';
import { CONTROL_ENVIRONMENT, common, control } from './sandbox-control-client.js';

/** The policy as one line: `8 attempts, waits 1m 5m 30m 1h 2h 4h 8h (sandbox clock)`. */
function describePolicy(answer: Record<string, unknown>): string {
  const { attempts, scheduleMs } = answer.retries as { attempts: number; scheduleMs: number[] };
  const wait = (ms: number) =>
    ms % 3_600_000 === 0 && ms > 0
      ? `${ms / 3_600_000}h`
      : ms % 60_000 === 0 && ms > 0
        ? `${ms / 60_000}m`
        : ms % 1000 === 0 && ms > 0
          ? `${ms / 1000}s`
          : `${ms}ms`;
  const waits = scheduleMs.length === 0 ? 'no retry' : `waits ${scheduleMs.map(wait).join(' ')}`;
  return `webhook deliveries from now on: ${attempts} attempt(s), ${waits} (sandbox clock)`;
}

/** `merchant-wallet sandbox webhook-retries`: reads or changes the retry policy of a running sandbox. */
export const webhookRetriesCommand = defineCommand({
  name: 'sandbox webhook-retries',
  summary: "print or change a running sandbox's webhook retry schedule",
  description: `Prints the retry policy of webhook deliveries, or with --attempts or --schedule
changes it for deliveries started from now on. The waits are sandbox time:
"sandbox advance 1h" brings the attempts due in that hour at once.`,
  options: {
    attempts: WEBHOOK_ATTEMPTS_OPTION,
    schedule: WEBHOOK_SCHEDULE_OPTION,
    ...common,
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o }, io) => {
    const schedule = parseSchedule(o.schedule, '--schedule', 'sandbox webhook-retries');
    if (schedule === undefined && o.attempts === undefined) {
      return control(io, o['base-url'], { method: 'GET', path: '/webhooks/retries' }, describePolicy);
    }
    const body = {
      ...(schedule === undefined ? {} : { schedule }),
      ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
    };
    return control(io, o['base-url'], { method: 'POST', path: '/webhooks/retries', body }, describePolicy);
  },
});

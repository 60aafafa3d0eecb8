import { runDemo } from '../demo/run-demo.js';
import { defineCommand } from './command.js';

/** Far above the ~2.6 s the demo takes; a hang must not keep CI waiting. */
const WATCHDOG_MS = 9_000;
const LABEL_WIDTH = 16;

/** `merchant-wallet demo`, also what `npm run demo` runs. */
export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'run the whole merchant flow against a throwaway sandbox',
  description: `Starts a sandbox and a small merchant app on free loopback ports and runs the
whole merchant flow against them with the SDK: login URL, user approval,
token webhook, providers, deposits (one pending, settled after 2 s and
seen through its verified webhook), withdrawal, status and a handled error.
Prints one line per step, credentials masked. Exits 0 when every step
worked, 1 otherwise.`,
  options: {},
  positionals: { name: 'arguments', min: 0, max: 0 },
  async run(_input, io) {
    const started = performance.now();
    const watchdog = setTimeout(() => {
      io.err(`demo failed: still running after ${WATCHDOG_MS / 1000} s\n`);
      process.exit(1);
    }, WATCHDOG_MS);
    // The watchdog must not be what keeps the process alive once the demo is done.
    watchdog.unref();
    io.out('Merchant Wallet demo\n');
    try {
      await runDemo((line) => io.out(`${line}\n`));
    } catch (error) {
      io.err(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    } finally {
      clearTimeout(watchdog);
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    io.out(`${'done'.padEnd(LABEL_WIDTH)}${seconds} s, servers closed\n`);
    return 0;
  },
});

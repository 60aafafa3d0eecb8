/**
 * `npm run demo`: the whole merchant flow against a local sandbox, as a short transcript.
 * Exits 0 when every step worked, 1 with the failing step otherwise.
 */
import { runDemo } from './demo/run-demo.js';

/** Far above the ~1 s the demo takes; a hang must not keep CI waiting. */
const WATCHDOG_MS = 9_000;

const started = performance.now();
const watchdog = setTimeout(() => {
  process.stderr.write(`demo failed: still running after ${WATCHDOG_MS / 1000} s\n`);
  process.exit(1);
}, WATCHDOG_MS);
// The watchdog must not be what keeps the process alive once the demo is done.
watchdog.unref();

process.stdout.write('Merchant Wallet demo\n');
try {
  await runDemo((line) => process.stdout.write(`${line}\n`));
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(`${'done'.padEnd(16)}${seconds} s, servers closed\n`);
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

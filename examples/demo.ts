/**
 * `npm run demo`: the whole merchant flow against a local sandbox, as a short transcript.
 * The same as `merchant-wallet demo`; exits 0 when every step worked, 1 with the failing
 * step otherwise.
 */
import { processIo } from '../src/cli/io.js';
import { runCli } from '../src/cli/run.js';

process.exitCode = await runCli(['demo', ...process.argv.slice(2)], processIo());

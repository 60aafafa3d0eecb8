import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { WalletClient } from '../src/index.js';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { executePlan } from './soak/execute.js';
import { checkLedger, failureLabel, moneyViolations, type SoakInvariants } from './soak/invariants.js';
import { planOperations, SOAK_API_KEY, SOAK_SECRETS, secretsHeldBy } from './soak/plan.js';
import { seededRandom } from './soak/prng.js';
import { formatSoakReport } from './soak/report.js';
import { countSecrets, type RecordedLine, renderingsOf, renderLine } from './soak/secrets.js';
import type { SoakOptions, SoakResult } from './soak/types.js';

export type { SoakOptions, SoakResult } from './soak/types.js';

/**
 * Drives deposits and withdrawals with injected faults through the SDK against a
 * sandbox served over real loopback HTTP, then checks the money-safety invariants
 * from the sandbox's own records. The plan is fixed by `seed`; the interleaving of
 * concurrent calls is not, and the invariants hold for any interleaving.
 */
export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const seed = options.seed ?? 1;
  const timeoutMs = options.timeoutMs ?? 150;
  const plan = planOperations(seededRandom(seed), {
    operations: options.operations ?? 10_000,
    faultRate: options.faultRate ?? 0.2,
    reuseRate: options.reuseRate ?? 0.03,
    timeoutMs,
  });
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0 });
  const lines: RecordedLine[] = [];
  const record = (level: string) => (message: string, meta?: unknown) => lines.push({ level, message, meta });
  const client = new WalletClient({
    apiKey: SOAK_API_KEY,
    baseUrl: server.baseUrl,
    timeoutMs,
    logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
    ...(options.transport === 'fetch' ? { fetch: globalThis.fetch } : {}),
  });
  const moneyBefore = sandbox.totalMoney();
  const started = performance.now();
  try {
    const records = await executePlan(client, sandbox, plan, options.concurrency ?? 16);
    const durationMs = performance.now() - started;
    const faultsLeftArmed = sandbox.faults.pending;
    sandbox.faults.clear();
    const transactions = sandbox.transactions();
    const moneyAfter = sandbox.totalMoney();
    const failures: Record<string, number> = {};
    // Log lines never carry bodies, so no secret at all may appear there; an error may
    // carry a server's echo of anything, so it is checked for the secrets its call held.
    let secretViolations = countSecrets(lines.flatMap(renderLine), SOAK_SECRETS);
    for (const { operation, outcome } of records) {
      if (outcome.ok) continue;
      const label = failureLabel(outcome.error);
      failures[label] = (failures[label] ?? 0) + 1;
      secretViolations += countSecrets(renderingsOf(outcome.error), secretsHeldBy(operation));
    }
    const perReference = new Map<string, number>();
    for (const t of transactions) {
      if (t.reference_id !== undefined)
        perReference.set(t.reference_id, (perReference.get(t.reference_id) ?? 0) + 1);
    }
    const invariants: SoakInvariants = {
      ...checkLedger(records, transactions, 'app_demo_shop'),
      moneyViolations: moneyViolations(moneyBefore, moneyAfter),
      secretViolations,
      moneyBefore,
      moneyAfter,
    };
    return {
      seed,
      operations: records.length,
      succeeded: records.filter((r) => r.outcome.ok).length,
      failures,
      faultsArmed: plan.filter((operation) => operation.fault).length,
      faultsLeftArmed,
      transactions: transactions.length,
      maxTransactionsPerReference: Math.max(0, ...perReference.values()),
      logLines: lines.length,
      durationMs,
      invariants,
      violations:
        invariants.duplicateReferenceViolations +
        invariants.unaccountedTransactionViolations +
        invariants.phantomSuccessViolations +
        invariants.moneyViolations +
        invariants.secretViolations +
        invariants.foreignErrorViolations,
    };
  } finally {
    sandbox.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      operations: { type: 'string' },
      seed: { type: 'string' },
      'fault-rate': { type: 'string' },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      transport: { type: 'string' },
    },
  });
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const transport = values.transport;
  if (transport !== undefined && transport !== 'node' && transport !== 'fetch') {
    throw new Error('--transport must be node or fetch');
  }
  const result = await runSoak({
    ...(values.operations ? { operations: number(values.operations) } : {}),
    ...(values.seed ? { seed: number(values.seed) } : {}),
    ...(values['fault-rate'] ? { faultRate: number(values['fault-rate']) } : {}),
    ...(values.concurrency ? { concurrency: number(values.concurrency) } : {}),
    ...(values['timeout-ms'] ? { timeoutMs: number(values['timeout-ms']) } : {}),
    ...(transport ? { transport } : {}),
  });
  process.stdout.write(
    `soak: seed ${result.seed}, transport ${transport ?? 'node'}\n${formatSoakReport(result)}\n`,
  );
  process.exitCode = result.violations === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}

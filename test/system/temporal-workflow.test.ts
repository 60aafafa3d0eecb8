import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { expect, test } from 'vitest';

// The checkout workflow cannot be run here (no Temporal server can be), but it is built as a worker
// builds it: Temporal's bundler refuses workflow code that imports Node's modules or anything
// non-deterministic, which is what would break it in Temporal's sandbox.
test('the checkout workflow bundles for the Temporal worker, without the SDK client in it', async () => {
  const warnings: string[] = [];
  const { code } = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('../../examples/temporal/workflows.ts', import.meta.url)),
    logger: new DefaultLogger('WARN', (entry) => void warnings.push(entry.message)),
  });
  expect(warnings).toEqual([]);
  expect(code).toContain('checkoutWorkflow');
  expect(code).toContain('walletPaymentSettled');
  // The activities run in the worker, outside the sandbox: their code is not in the bundle.
  expect(code).not.toContain('WalletOutcomeUnknownError');
}, 60_000);

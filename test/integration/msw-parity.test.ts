import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CODE_CASES, prepareFixtures } from './error-cases.js';
import { startMswTarget, startServerTarget, type Target, TRANSPORTS, type TransportName } from './harness.js';
import { type Outcome, outcomeOf } from './outcome.js';
import { SCENARIOS } from './scenarios.js';

/** Runs the success flow, then every error case, and records what the SDK returned or threw. */
async function observe(target: Target, transport: TransportName): Promise<[string, Outcome][]> {
  const seen: [string, Outcome][] = [];
  for (const scenario of SCENARIOS) {
    seen.push([scenario.name, await outcomeOf(scenario.run(target, transport))]);
  }
  const fixtures = await prepareFixtures(target, transport);
  for (const c of CODE_CASES) seen.push([c.code, await outcomeOf(c.call(target, transport, fixtures))]);
  return seen;
}

describe.each(TRANSPORTS)(
  'sandboxHandlers in msw and the sandbox server give the SDK the same answers, %s transport',
  (transport) => {
    let server: Target;
    let msw: Target;
    beforeAll(async () => {
      server = await startServerTarget();
      msw = await startMswTarget({}, [server.baseUrl]);
    });
    afterAll(async () => {
      await msw.close();
      await server.close();
    });

    test('every scenario and every error code, step by step, with equal balances after', async () => {
      const viaServer = await observe(server, transport);
      const viaMsw = await observe(msw, transport);
      expect(viaMsw.map(([name]) => name)).toEqual(viaServer.map(([name]) => name));
      for (const [index, [name, outcome]] of viaServer.entries()) {
        expect(viaMsw[index]?.[1], name).toEqual(outcome);
      }
      // The flow itself must have worked, not merely failed alike on both sides.
      expect(viaServer.slice(0, SCENARIOS.length).map(([, o]) => o.ok)).not.toContain(false);
      expect(viaServer.slice(SCENARIOS.length).map(([, o]) => o.ok)).not.toContain(true);
      expect(msw.sandbox.balances()).toEqual(server.sandbox.balances());
      const summary = (target: Target) =>
        target.sandbox.transactions().map((t) => [t.transaction_id, t.type, t.transaction_status, t.amount]);
      expect(summary(msw)).toEqual(summary(server));
    });
  },
);

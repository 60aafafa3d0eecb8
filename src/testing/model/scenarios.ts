import type { DeliveryMode } from './delivery-plan.js';

/**
 * A provider phone number with a scripted ending, like a payment network's test card
 * numbers: a deposit that goes pending through a provider account with this number
 * settles on its own, after `settleAfterMs` of sandbox time, as `outcome`, and its result
 * webhook is delivered as `delivery` says.
 */
export interface SandboxScenario {
  /** The provider account's phone number that selects the scenario. */
  readonly phoneNumber: string;
  /** The default seed's user whose `mpesa` account has this number (wallet balance 0, so deposits go pending). */
  readonly email: string;
  /** That user's token for `app_demo_shop` in the default seed. */
  readonly token: string;
  /** What happens, in one line. */
  readonly description: string;
  /** How the deposit ends, as `sandbox.settle` takes it. */
  readonly outcome: {
    /** The final status. */
    readonly status: 'completed' | 'failed';
    /** The reason of a failure. */
    readonly failure_reason?: string;
  };
  /** When it ends, in sandbox ms after it went pending (`advance` gets there at once). */
  readonly settleAfterMs: number;
  /** How its result webhook is delivered. */
  readonly delivery: DeliveryMode;
}

/**
 * Longer than the default `timeoutMs` of `waitForTransaction` (300 s), so a merchant
 * waiting with the defaults gives up before the deposit completes.
 */
const AFTER_MERCHANT_TIMEOUT_MS = 360_000;

/** The scenario values, one row each; docs/sandbox.md lists the same table. */
export const SANDBOX_SCENARIOS: readonly SandboxScenario[] = [
  {
    phoneNumber: '+254799000001',
    email: 'cancelled@scenario.test',
    token: 'tok_scenario_cancelled',
    description: 'the user cancels on the phone: failed after 5 s',
    outcome: { status: 'failed', failure_reason: 'user cancelled' },
    settleAfterMs: 5_000,
    delivery: 'deliver',
  },
  {
    phoneNumber: '+254799000002',
    email: 'insufficient@scenario.test',
    token: 'tok_scenario_insufficient',
    description: 'the provider account is short: failed after 3 s',
    outcome: { status: 'failed', failure_reason: 'insufficient funds' },
    settleAfterMs: 3_000,
    delivery: 'deliver',
  },
  {
    phoneNumber: '+254799000003',
    email: 'timeout@scenario.test',
    token: 'tok_scenario_timeout',
    description: 'the provider never answers the wallet: failed after 60 s',
    outcome: { status: 'failed', failure_reason: 'provider timeout' },
    settleAfterMs: 60_000,
    delivery: 'deliver',
  },
  {
    phoneNumber: '+254799000004',
    email: 'late@scenario.test',
    token: 'tok_scenario_late',
    description: 'completed after 6 min, past the default polling timeout',
    outcome: { status: 'completed' },
    settleAfterMs: AFTER_MERCHANT_TIMEOUT_MS,
    delivery: 'deliver',
  },
  {
    phoneNumber: '+254799000005',
    email: 'twice@scenario.test',
    token: 'tok_scenario_twice',
    description: 'completed after 2 s; the callback arrives twice',
    outcome: { status: 'completed' },
    settleAfterMs: 2_000,
    delivery: 'twice',
  },
  {
    phoneNumber: '+254799000006',
    email: 'silent@scenario.test',
    token: 'tok_scenario_silent',
    description: 'completed after 2 s; the callback never arrives (poll the status)',
    outcome: { status: 'completed' },
    settleAfterMs: 2_000,
    delivery: 'drop',
  },
];

/** The scenario a provider phone number selects, if any. */
export function scenarioFor(phoneNumber: string): SandboxScenario | undefined {
  return SANDBOX_SCENARIOS.find((scenario) => scenario.phoneNumber === phoneNumber);
}

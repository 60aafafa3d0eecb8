import { WalletConfigError } from '../errors.js';
import { isHttpUrl } from '../limits.js';
import { forgeWebhook } from './forge/send.js';
import { assertErrorBodyShape, type ErrorBodyShape } from './http/error-body.js';
import { FaultInjector } from './http/faults.js';
import { checkLimit } from './model/bounds.js';
import { VirtualClock } from './model/clock.js';
import type { RuleContext } from './model/context.js';
import type { SandboxEvent } from './model/events.js';
import { snapshotBalances, sumMoney } from './model/read-models.js';
import { scenarioFor } from './model/scenarios.js';
import { defaultSandboxSeed, type SandboxSeed } from './model/seed.js';
import { buildState, emailKey } from './model/state.js';
import { type TransactionRecord, toSandboxTransaction } from './model/transactions.js';
import { putUser, setBalance } from './rules/admin.js';
import { issueToken } from './rules/authorize.js';
import { type RevokeTarget, revokeTokens } from './rules/revoke.js';
import { automaticOutcome, type SettleOutcome, settleDeposit } from './rules/settlement.js';
import type { MerchantPatch, Sandbox, SandboxOptions } from './sandbox-types.js';
import { WebhookDispatcher } from './serve/webhook-dispatcher.js';
import type { WebhookDelivery } from './serve/webhook-types.js';

/** What the request handler needs beyond the public surface. @internal */
export interface SandboxInternals {
  ctx: RuleContext;
  faults: FaultInjector;
  /** The control API key, when the control API is on. */
  controlKey: string | undefined;
  /** Like `authorize`, but also returns the delivery of `user_authorized`, if one was sent. */
  authorizeAndNotify(
    email: string,
    appId: string,
  ): { token: string; delivery: Promise<WebhookDelivery> | undefined };
}

const internalsBySandbox = new WeakMap<Sandbox, SandboxInternals>();

/** The internals of a sandbox made by {@link createSandbox}. @internal */
export function sandboxInternals(sandbox: Sandbox): SandboxInternals {
  const internals = internalsBySandbox.get(sandbox);
  if (!internals) throw new WalletConfigError('sandbox', 'must be a sandbox returned by createSandbox');
  return internals;
}

function optionalUrl(value: string | null | undefined, field: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isHttpUrl(value)) {
    throw new WalletConfigError(field, 'must be an absolute http(s) URL or null');
  }
  return value;
}

/** Refuses a seed that is not one: most often options passed first, where the seed goes. */
function checkSeed(seed: unknown): void {
  const fields = typeof seed === 'object' && seed !== null ? (seed as Partial<SandboxSeed>) : undefined;
  if (fields === undefined || !Array.isArray(fields.merchants) || !Array.isArray(fields.users)) {
    throw new WalletConfigError(
      'seed',
      'must be a sandbox seed with merchants and users; pass options second: createSandbox(defaultSandboxSeed(), options)',
    );
  }
}

function checkOptions(options: SandboxOptions): void {
  assertErrorBodyShape(options.errorShape ?? 'code', 'options.errorShape');
  const { maxBodyBytes, autoSettleMs, controlKey, onEvent, now } = options;
  if (maxBodyBytes !== undefined) checkLimit('maxBodyBytes', maxBodyBytes, 'options.maxBodyBytes');
  if (autoSettleMs !== undefined) checkLimit('autoSettleMs', autoSettleMs, 'options.autoSettleMs');
  if (now !== undefined && typeof now !== 'function') {
    throw new WalletConfigError('options.now', 'must be a function returning a Date');
  }
  if (controlKey !== undefined && !(typeof controlKey === 'string' && controlKey.length >= 16)) {
    throw new WalletConfigError('options.controlKey', 'must be a string of at least 16 characters');
  }
  if (onEvent !== undefined && typeof onEvent !== 'function') {
    throw new WalletConfigError('options.onEvent', 'must be a function');
  }
}

/**
 * Creates a sandbox holding `seed` (the default seed when absent; see
 * `defaultSandboxSeed`). The seed is copied, so later changes to it do nothing.
 *
 * @example
 * const sandbox = createSandbox();
 * const { baseUrl, authUrl, close } = await startSandboxServer({ sandbox, port: 0 });
 */
export function createSandbox(
  seed: SandboxSeed = defaultSandboxSeed(),
  options: SandboxOptions = {},
): Sandbox {
  checkSeed(seed);
  const initial = structuredClone(seed);
  checkOptions(options);
  let errorShape: ErrorBodyShape = options.errorShape ?? 'code';
  const { autoSettleMs } = options;
  // A listener that throws must not turn an applied request into a failed answer: its error is
  // thrown again on the next tick, as `node:diagnostics_channel` does with a subscriber's.
  const emit = (event: SandboxEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  };
  const clock = new VirtualClock(options.now ?? (() => new Date()));
  clock.now(); // a `now` option giving no usable date is refused here, not by the first request
  const dispatcher = new WebhookDispatcher(
    options.webhooks ?? {},
    clock,
    (delivery, attempt, number) => emit({ type: 'webhook-attempt', delivery, attempt, number }),
    (delivery, until) => emit({ type: 'webhook-held', delivery, until }),
  );
  const faults = new FaultInjector();
  let transactionCount = 0;
  let forgeries = 0;

  /** The timed settlement of each pending deposit that has one, cancelled when it is settled sooner. */
  const timedSettlements = new Map<string, () => void>();
  const settle = (id: string, outcome: SettleOutcome) => {
    const transaction = toSandboxTransaction(settleDeposit(ctx, id, outcome));
    timedSettlements.get(id)?.();
    timedSettlements.delete(id);
    emit({ type: 'settled', transaction });
    return transaction;
  };
  /** Scenario numbers settle on their own schedule; other deposits after `autoSettleMs`, if set. */
  const schedulePending = (tx: TransactionRecord) => {
    const account = ctx.state.users.get(emailKey(tx.email))?.providers.get(tx.provider ?? '');
    const scenario = account && scenarioFor(account.phoneNumber);
    const delayMs = scenario?.settleAfterMs ?? autoSettleMs;
    if (delayMs === undefined) return;
    const cancel = clock.schedule(delayMs, () => {
      timedSettlements.delete(tx.id);
      if (tx.status !== 'pending' || ctx.transactions.get(tx.id) !== tx) return;
      const outcome = scenario
        ? { ...scenario.outcome, delivery: { mode: scenario.delivery } }
        : automaticOutcome(ctx, tx);
      tx.autoSettledAfterMs = delayMs;
      settle(tx.id, outcome);
    });
    timedSettlements.set(tx.id, cancel);
  };

  const ctx: RuleContext = {
    state: buildState(structuredClone(initial)),
    transactions: new Map(),
    newTransactionId: () => `txn_${String(++transactionCount).padStart(6, '0')}`,
    now: () => clock.now(),
    sendWebhook: (url, event, plan) => void dispatcher.send(url, event, plan),
    onPending: schedulePending,
  };

  const authorizeAndNotify = (email: string, appId: string) => {
    const issued = issueToken(ctx.state, email, appId);
    const { token, webhookUrl, revoked } = issued;
    emit({ type: 'authorized', email: issued.email, appId, token, revoked, webhookUrl });
    const delivery =
      webhookUrl === undefined
        ? undefined
        : dispatcher.send(webhookUrl, { event: 'user_authorized', user_email: issued.email, token });
    return { token, delivery };
  };

  function totalMoney(): Record<string, number>;
  function totalMoney(currency: string): number;
  function totalMoney(currency?: string): number | Record<string, number> {
    const totals = sumMoney(ctx.state);
    return currency === undefined ? totals : (totals[currency] ?? 0);
  }

  const sandbox: Sandbox = {
    get errorShape() {
      return errorShape;
    },
    set errorShape(shape: ErrorBodyShape) {
      assertErrorBodyShape(shape, 'errorShape');
      errorShape = shape;
    },
    maxBodyBytes: options.maxBodyBytes ?? 65_536,
    webhooks: dispatcher,
    faults,
    clock,
    authorize: ({ email, appId }) => authorizeAndNotify(email, appId).token,
    revoke: ((target: RevokeTarget | string) => {
      if (typeof target !== 'string') {
        const result = revokeTokens(ctx.state, target);
        if (result.revoked > 0) emit({ type: 'revoked', ...result });
        return result;
      }
      const record = ctx.state.tokens.get(target);
      if (!record || record.revoked) return false;
      record.revoked = true;
      emit({ type: 'revoked', email: record.email, revoked: 1 });
      return true;
    }) as Sandbox['revoke'],
    settle,
    forge: (request) =>
      forgeWebhook(
        ctx,
        (url, event, plan, forged) => {
          const index = dispatcher.deliveries().length;
          void dispatcher.send(url, event, plan ?? { mode: 'deliver' }, forged);
          return dispatcher.deliveries()[index] as WebhookDelivery;
        },
        request,
        String(++forgeries),
      ),
    transaction: (id) => {
      const tx = ctx.transactions.get(id);
      return tx && toSandboxTransaction(tx);
    },
    transactions: () => [...ctx.transactions.values()].map(toSandboxTransaction),
    balances: () => snapshotBalances(ctx.state),
    totalMoney,
    updateMerchant: (appId, patch) => updateMerchant(ctx, appId, patch),
    setBalance: (target) => setBalance(ctx.state, target),
    putUser: (user) => {
      // A pending deposit settles against the user's provider account, which a new record could lack.
      const email = typeof user?.email === 'string' ? emailKey(user.email) : undefined;
      for (const tx of ctx.transactions.values()) {
        if (tx.status === 'pending' && emailKey(tx.email) === email) {
          throw new WalletConfigError('user.email', `has a pending deposit (${tx.id}): settle it first`);
        }
      }
      putUser(ctx.state, user);
    },
    reset: () => {
      clock.clear();
      timedSettlements.clear();
      faults.clear();
      dispatcher.reset();
      ctx.state = buildState(structuredClone(initial));
      ctx.transactions.clear();
      emit({ type: 'reset' });
    },
    close: () => {
      clock.clear();
      dispatcher.close();
    },
  };
  internalsBySandbox.set(sandbox, { ctx, faults, controlKey: options.controlKey, authorizeAndNotify });
  return sandbox;
}

function updateMerchant(ctx: RuleContext, appId: string, patch: MerchantPatch): void {
  const merchant = ctx.state.merchantsByApp.get(appId);
  if (!merchant) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
  if (typeof patch !== 'object' || patch === null) throw new WalletConfigError('patch', 'must be an object');
  if (patch.active !== undefined && typeof patch.active !== 'boolean') {
    throw new WalletConfigError('patch.active', 'must be a boolean');
  }
  const authWebhookUrl = optionalUrl(patch.authWebhookUrl, 'patch.authWebhookUrl');
  const depositWebhookUrl = optionalUrl(patch.depositWebhookUrl, 'patch.depositWebhookUrl');
  // Checked in full before anything changes, so a bad patch changes nothing.
  if (patch.active !== undefined) merchant.active = patch.active;
  if (patch.authWebhookUrl !== undefined) merchant.authWebhookUrl = authWebhookUrl;
  if (patch.depositWebhookUrl !== undefined) merchant.depositWebhookUrl = depositWebhookUrl;
}

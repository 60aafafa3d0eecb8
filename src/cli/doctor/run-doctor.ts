import { lookup } from 'node:dns/promises';
import type { CheckContext, CheckReport, CheckResult, DoctorCheck, DoctorDeps } from './check.js';
import { apiKeyCheck, baseUrlCheck, clockSkewCheck, environmentCheck } from './checks/api.js';
import { keyringCheck } from './checks/keyring.js';
import { loginRedirectCheck } from './checks/login-redirect.js';
import { sharedKeysCheck } from './checks/shared-keys.js';
import { storeSchemaCheck, sweeperCheck } from './checks/stores.js';
import { webhookCheck } from './checks/webhook.js';
import type { DoctorConfig } from './config.js';
import { type ApiProbe, probeApi } from './probe.js';
import { type OpenedStore, openStore } from './store.js';

/** Every check, in the order the report lists them; a check comes after those it needs. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  baseUrlCheck,
  environmentCheck,
  apiKeyCheck,
  clockSkewCheck,
  webhookCheck,
  loginRedirectCheck,
  keyringCheck,
  storeSchemaCheck,
  sweeperCheck,
  sharedKeysCheck,
];

/** What a run of the doctor found. */
export interface DoctorReport {
  /** Whether no check failed (warnings and skipped checks allowed). */
  readonly ok: boolean;
  /** Each check, in order. */
  readonly checks: readonly CheckReport[];
}

/** Every secret the configuration holds, for the last line of defence: none may appear in a report. */
function secretsOf(config: DoctorConfig): string[] {
  const secrets = [config.apiKey, config.storeUrl];
  if (config.storeUrl !== undefined && URL.canParse(config.storeUrl)) {
    const { password } = new URL(config.storeUrl);
    secrets.push(password, decodeURIComponent(password));
  }
  const keys = config.keyring?.keys;
  if (typeof keys === 'object' && keys !== null) {
    for (const value of Object.values(keys)) if (typeof value === 'string') secrets.push(value, value.trim());
  }
  return secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 4);
}

function redactor(config: DoctorConfig): (text: string) => string {
  const secrets = secretsOf(config).sort((a, b) => b.length - a.length);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** The longest a check may take: whatever it waits for (a host, a store) is reported, not waited out. */
export const CHECK_TIME_LIMIT_MS = 5_000;

function withinTime(work: Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          status: 'fail',
          problem: 'check_timeout',
          detail: `no answer within ${CHECK_TIME_LIMIT_MS / 1000} s`,
          fix: 'check that the host it reads is up and reachable from this machine',
        }),
      CHECK_TIME_LIMIT_MS,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/**
 * Runs every check against `config` and reports each. The only requests with an effect anywhere
 * are none: the API is read (a status of a transaction that does not exist), the webhook URL gets
 * one POST of an empty body (and a GET when that POST found no route), the store is read. A check
 * is skipped when a check it needs failed. Nothing in the report holds a secret of `config`.
 */
export async function runDoctor(config: DoctorConfig, deps: Partial<DoctorDeps> = {}): Promise<DoctorReport> {
  const full: DoctorDeps = {
    fetch: deps.fetch ?? globalThis.fetch,
    now: deps.now ?? Date.now,
    lookup: deps.lookup ?? ((hostname) => lookup(hostname)),
    journal: deps.journal,
  };
  let opened: Promise<OpenedStore | undefined> | undefined;
  const context: CheckContext = {
    config,
    deps: full,
    probe: once<ApiProbe>(() => probeApi(config, full)),
    store: () => {
      opened ??= config.storeUrl === undefined ? Promise.resolve(undefined) : openStore(config.storeUrl);
      return opened;
    },
  };
  const redact = redactor(config);
  const blocked = new Set<string>();
  const checks: CheckReport[] = [];
  try {
    for (const check of DOCTOR_CHECKS) {
      const missing = (check.needs ?? []).filter((id) => blocked.has(id));
      let result: CheckResult;
      if (missing.length > 0) {
        result = { status: 'skip', detail: `skipped until ${missing.join(' and ')} pass` };
      } else {
        result = await withinTime(check.run(context)).catch((error: unknown) => ({
          status: 'fail' as const,
          problem: 'check_error',
          detail: `the check itself failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
          fix: 'run again; if it persists, report it with this line',
        }));
      }
      if (result.status === 'fail' || missing.length > 0) blocked.add(check.id);
      checks.push({
        id: check.id,
        title: check.title,
        status: result.status,
        ...(result.problem === undefined ? {} : { problem: result.problem }),
        detail: redact(result.detail),
        ...(result.fix === undefined ? {} : { fix: redact(result.fix) }),
      });
    }
  } finally {
    const store = await opened?.catch(() => undefined);
    await store?.close().catch(() => {});
  }
  return { ok: checks.every((check) => check.status !== 'fail'), checks };
}

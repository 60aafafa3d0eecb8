import type { Sandbox } from '../sandbox-types.js';
import type { CertifyFixtures } from './fixtures.js';
import { type ProbeAnswer, type Prober, probe } from './probe.js';
import {
  CERTIFY_CHECKS,
  type CertifyCheckId,
  type CertifyCheckResult,
  type CertifyVerdict,
} from './types.js';

/** How long an effect may take to show after its event was acknowledged (a queue worker, a commit). */
const EFFECT_SETTLE_MS = 1_500;
/** How long `certify` watches for an effect that must not happen. */
const NO_EFFECT_WATCH_MS = 150;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every check works with. @internal */
export class CertifyRun {
  readonly prober: Prober;
  readonly fixtures: CertifyFixtures;
  readonly sandbox: Sandbox;
  /** Results some checks share (one run of 10 copies feeds two checks). */
  readonly shared = new Map<string, Promise<unknown>>();

  constructor(prober: Prober, fixtures: CertifyFixtures, sandbox: Sandbox) {
    this.prober = prober;
    this.fixtures = fixtures;
    this.sandbox = sandbox;
  }

  /** Whether effects are counted (in-process mode). */
  get counts(): boolean {
    return this.prober.effects !== undefined;
  }

  /** The merchant's effect count now; 0 in remote mode. */
  effects(): Promise<number> {
    return this.prober.effects?.() ?? Promise.resolve(0);
  }

  /** Posts an event's JSON (or a raw body). */
  post(body: unknown): Promise<ProbeAnswer> {
    return probe(this.prober, typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** The effect count once it reached `target` (or after the settle time), then a moment later, to see extra ones. */
  async effectsReaching(target: number): Promise<number> {
    const until = performance.now() + EFFECT_SETTLE_MS;
    while (performance.now() < until && (await this.effects()) < target) await sleep(10);
    await sleep(NO_EFFECT_WATCH_MS / 3);
    return this.effects();
  }

  /** The effect count after watching a while for an effect that must not come. */
  async effectsAfterWatch(): Promise<number> {
    await sleep(NO_EFFECT_WATCH_MS);
    return this.effects();
  }

  /** Runs `work` once per key, however many checks ask. */
  once<T>(key: string, work: () => Promise<T>): Promise<T> {
    let running = this.shared.get(key) as Promise<T> | undefined;
    if (running === undefined) {
      running = work();
      this.shared.set(key, running);
    }
    return running;
  }
}

/** A check's result, with its title, and its fix unless it passed. */
export function result(id: CertifyCheckId, verdict: CertifyVerdict, detail: string): CertifyCheckResult {
  const { title, fix } = CERTIFY_CHECKS[id];
  return { id, title, verdict, detail, fix: verdict === 'pass' ? undefined : fix };
}

/** Said by checks whose point is an effect, in remote mode. */
export const NOT_SEEN_REMOTELY =
  'the remote mode sees answers only: run certifyHandler in your tests to count effects';

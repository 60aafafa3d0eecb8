/**
 * Token vault budgets: `vault.tokenFor` decrypts per second on the memory store, measured in a child
 * process pinned to one core (`taskset -c 0`, where it exists) at 64 lookups in flight; and deposits
 * by `{ user }` through the vault against deposits by `{ userToken }`, at concurrency 64 against the
 * sandbox, rounds interleaved, medians.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type * as Package from '../src/index.js';
import type * as Testing from '../src/testing/index.js';
import { median } from './throughput.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient, createMemoryTokenStore, createTokenVault }: typeof Package = await import(
  dist('index')
);

const DEPOSITS = 2_000;
const CONCURRENCY = 64;
const ROUNDS = 8;
const EMAIL = 'alice@example.com';
const TOKEN = 'tok_sandbox_alice';

/** The vault figures. */
export interface VaultFigures {
  readonly tokenForPerSecond: number;
  /** Whether the decrypts ran pinned to one core. */
  readonly pinned: boolean;
  readonly byTokenPerSecond: number;
  readonly byUserPerSecond: number;
  readonly byUserRatio: number;
}

/** A vault on the memory store holding Alice's sandbox token as her current one. */
export async function aliceVault() {
  const vault = createTokenVault({
    store: createMemoryTokenStore(),
    keys: { primary: 'k1', keys: { k1: randomBytes(32).toString('base64') } },
    appId: 'app_demo_shop',
  });
  await vault.receive({ user_email: EMAIL, token: TOKEN });
  return vault;
}

/** `vault.tokenFor` calls per second over about two seconds, 64 in flight. */
export async function tokenForPerSecond(): Promise<number> {
  const vault = await aliceVault();
  let done = 0;
  const started = performance.now();
  while (performance.now() - started < 2_000) {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => vault.tokenFor(EMAIL)));
    done += CONCURRENCY;
  }
  return done / ((performance.now() - started) / 1000);
}

function pinnedTokenFor(): { perSecond: number; pinned: boolean } {
  const script = fileURLToPath(new URL('./token-vault-decrypts.ts', import.meta.url));
  const args = [process.execPath, '--import', 'tsx', script];
  const pinned = spawnSync('taskset', ['-c', '0', ...args], { encoding: 'utf8' });
  if (pinned.status === 0) return { perSecond: Number(pinned.stdout.trim()), pinned: true };
  const [node = process.execPath, ...rest] = args;
  const free = spawnSync(node, rest, { encoding: 'utf8' });
  return { perSecond: Number(free.stdout.trim()), pinned: false };
}

async function depositsPerSecond(
  baseUrl: string,
  vault: Package.TokenVault,
  byUser: boolean,
  round: string,
): Promise<number> {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: CONCURRENCY,
    tokens: vault,
  });
  let next = 0;
  const worker = async () => {
    while (next < DEPOSITS) {
      const n = next++;
      const body = { reference_id: `${round}-${n}`, amount: 1, currency: 'KES' };
      await wallet.deposit(body, byUser ? { user: EMAIL } : { userToken: TOKEN });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await wallet.close();
  return DEPOSITS / seconds;
}

/** Measures both vault budgets. */
export async function measureTokenVault(): Promise<VaultFigures> {
  const { createSandbox, startSandboxServer }: typeof Testing = await import(dist('testing'));
  const decrypts = pinnedTokenFor();
  const sandbox = createSandbox();
  sandbox.setBalance({ email: EMAIL, currency: 'KES', amount: 1_000_000 });
  const server = await startSandboxServer({ sandbox, port: 0 });
  try {
    const vault = await aliceVault();
    const byToken: number[] = [];
    const byUser: number[] = [];
    // The order alternates round by round, so a sandbox slowing as its ledger grows hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      const token = () => depositsPerSecond(server.baseUrl, vault, false, `vault-token-${round}`);
      const user = () => depositsPerSecond(server.baseUrl, vault, true, `vault-user-${round}`);
      if (round % 2 === 0) {
        byToken.push(await token());
        byUser.push(await user());
      } else {
        byUser.push(await user());
        byToken.push(await token());
      }
    }
    return {
      tokenForPerSecond: decrypts.perSecond,
      pinned: decrypts.pinned,
      byTokenPerSecond: median(byToken),
      byUserPerSecond: median(byUser),
      byUserRatio: median(byUser.map((value, n) => value / (byToken[n] ?? 1))),
    };
  } finally {
    sandbox.close();
    await server.close();
  }
}

/** The vault lines of the bench's report. */
export function vaultTable(figures: VaultFigures): string {
  return [
    `tokenFor    ${figures.tokenForPerSecond.toFixed(0).padStart(8)} decrypts/s${figures.pinned ? ' (one core)' : ' (not pinned: no taskset)'}`,
    `{userToken} ${figures.byTokenPerSecond.toFixed(0).padStart(8)} deposits/s`,
    `{user}      ${figures.byUserPerSecond.toFixed(0).padStart(8)} deposits/s  ${figures.byUserRatio.toFixed(2)}×`,
    '',
  ].join('\n');
}

/**
 * Token vault budgets: `vault.tokenFor` decrypts per second on the memory store, measured in a child
 * process pinned to one core (`taskset -c 0`, where it exists) at 64 lookups in flight; and deposits
 * by `{ user }` through the vault against deposits by `{ userToken }`, at concurrency 64 against the
 * sandbox, rounds interleaved, medians.
 *
 * Beside them runs the floor under `{ user }`: deposits by `{ userToken }` that each first open a
 * sealed token with one AES-256-GCM decryption, as the vault does. The vault keeps no plaintext token
 * between calls, so no `{ user }` deposit costs less; its ratio is read against that floor.
 */
import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
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
  /** Deposits by `{ userToken }` with one decryption each: the floor under `{ user }`. */
  readonly decryptFloorPerSecond: number;
  readonly decryptFloorRatio: number;
}

/** How a round's deposits name their user. */
type PaidBy = 'token' | 'user' | 'decrypt';

/**
 * Alice's token sealed with AES-256-GCM under a random key, with associated data of the vault's
 * size, and what opens it: one `node:crypto` decryption per call, as the vault's own.
 */
function sealedToken(): () => string {
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const additionalData = Buffer.from(`mwt1\napp_demo_shop\n${EMAIL}`);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData);
  const data = Buffer.concat([cipher.update(TOKEN, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return () => {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    decipher.setAAD(additionalData);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  };
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
  paidBy: PaidBy,
  round: string,
): Promise<number> {
  const open = sealedToken();
  const optionsOf = {
    token: () => ({ userToken: TOKEN }),
    user: () => ({ user: EMAIL }),
    decrypt: () => ({ userToken: open() }),
  }[paidBy];
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
      await wallet.deposit(body, optionsOf());
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
    const perSecond: Record<PaidBy, number[]> = { token: [], user: [], decrypt: [] };
    const arms: PaidBy[] = ['token', 'user', 'decrypt'];
    // The order turns round by round, so a sandbox slowing as its ledger grows hits each arm alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let n = 0; n < arms.length; n++) {
        const paidBy = arms[(round + n) % arms.length] as PaidBy;
        perSecond[paidBy].push(
          await depositsPerSecond(server.baseUrl, vault, paidBy, `vault-${paidBy}-${round}`),
        );
      }
    }
    const ratioTo = (values: number[]) => median(values.map((value, n) => value / (perSecond.token[n] ?? 1)));
    return {
      tokenForPerSecond: decrypts.perSecond,
      pinned: decrypts.pinned,
      byTokenPerSecond: median(perSecond.token),
      byUserPerSecond: median(perSecond.user),
      byUserRatio: ratioTo(perSecond.user),
      decryptFloorPerSecond: median(perSecond.decrypt),
      decryptFloorRatio: ratioTo(perSecond.decrypt),
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
    `  floor     ${figures.decryptFloorPerSecond.toFixed(0).padStart(8)} deposits/s  ${figures.decryptFloorRatio.toFixed(2)}×  ({userToken} after one AES-GCM decryption each)`,
    '',
  ].join('\n');
}

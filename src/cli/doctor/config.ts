import { WalletConfigError } from '../../index.js';

/**
 * What `merchant-wallet doctor` checks: the settings a merchant's deployment runs with. Every field
 * is optional; a check whose settings are absent is skipped and says which to set.
 */
export interface DoctorConfig {
  /** The merchant API key (`WALLET_API_KEY`). Never printed. */
  readonly apiKey?: string | undefined;
  /** The API base URL (`WALLET_BASE_URL`). */
  readonly baseUrl?: string | undefined;
  /** Whether plain http to a host other than this machine is accepted, as the client option. */
  readonly allowInsecureHttp?: boolean | undefined;
  /** Where the service posts webhooks (`WALLET_WEBHOOK_URL`). */
  readonly webhookUrl?: string | undefined;
  /** The login page's base address (`WALLET_AUTH_URL`). */
  readonly authUrl?: string | undefined;
  /** The application id of the login URL (`WALLET_APP_ID`). */
  readonly appId?: string | undefined;
  /** Where the login page sends the user back (`WALLET_LOGIN_REDIRECT_URL`). */
  readonly loginRedirectUrl?: string | undefined;
  /** Hosts the login redirect may name (`WALLET_ALLOWED_REDIRECT_HOSTS`, comma-separated). */
  readonly allowedRedirectHosts?: readonly string[] | undefined;
  /** The token vault's keyring (`WALLET_TOKEN_KEYS`, JSON). Its keys are never printed. */
  readonly keyring?: { readonly primary?: unknown; readonly keys?: unknown } | undefined;
  /** The journal's store: `postgres://…` or `redis://…` (`WALLET_STORE_URL`); memory when absent. Never printed. */
  readonly storeUrl?: string | undefined;
  /** The largest clock difference with the service accepted. @default 30000 */
  readonly maxClockSkewMs?: number | undefined;
  /** How long a due intent may wait before the sweeper counts as stopped. @default 900000 (15 minutes) */
  readonly sweeperStaleAfterMs?: number | undefined;
}

type Kind = 'string' | 'boolean' | 'number' | 'hosts' | 'keyring';

/** Each field, its type, and the environment variable that sets it (a registry: a forgotten field fails to compile). */
const FIELDS: { readonly [K in keyof Required<DoctorConfig>]: { kind: Kind; env?: string } } = {
  apiKey: { kind: 'string', env: 'WALLET_API_KEY' },
  baseUrl: { kind: 'string', env: 'WALLET_BASE_URL' },
  allowInsecureHttp: { kind: 'boolean' },
  webhookUrl: { kind: 'string', env: 'WALLET_WEBHOOK_URL' },
  authUrl: { kind: 'string', env: 'WALLET_AUTH_URL' },
  appId: { kind: 'string', env: 'WALLET_APP_ID' },
  loginRedirectUrl: { kind: 'string', env: 'WALLET_LOGIN_REDIRECT_URL' },
  allowedRedirectHosts: { kind: 'hosts', env: 'WALLET_ALLOWED_REDIRECT_HOSTS' },
  keyring: { kind: 'keyring', env: 'WALLET_TOKEN_KEYS' },
  storeUrl: { kind: 'string', env: 'WALLET_STORE_URL' },
  maxClockSkewMs: { kind: 'number' },
  sweeperStaleAfterMs: { kind: 'number' },
};

/** The environment variables `doctor` reads, with what each sets, for its help. */
export const DOCTOR_ENVIRONMENT: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FIELDS)
    .filter(([, field]) => field.env !== undefined)
    .map(([name, field]) => [field.env, `the config file's "${name}"`]),
);

function checkValue(kind: Kind, value: unknown, path: string): unknown {
  const fail = (problem: string): never => {
    throw new WalletConfigError(path, problem);
  };
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value !== '' ? value : fail('must be a non-empty string');
    case 'boolean':
      return typeof value === 'boolean' ? value : fail('must be true or false');
    case 'number':
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
        ? value
        : fail('must be a positive whole number of milliseconds');
    case 'hosts':
      return Array.isArray(value) && value.every((host) => typeof host === 'string')
        ? value
        : fail('must be a list of host names');
    case 'keyring':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? value
        : fail('must be an object { "primary": "<key id>", "keys": { "<key id>": "<base64>" } }');
  }
}

/** An environment variable's text as the field's value; values are never repeated in messages. */
function fromEnvironment(kind: Kind, text: string, name: string): unknown {
  if (kind === 'hosts') {
    return text
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host !== '');
  }
  if (kind !== 'keyring') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WalletConfigError(name, 'is not JSON: write { "primary": "k1", "keys": { "k1": "<base64>" } }');
  }
}

/**
 * The doctor's configuration from a JSON file's text (optional) and the environment; a variable
 * that is set wins over the file's field.
 * @throws {WalletConfigError} naming the field or variable at fault, never repeating its value:
 *   a file that is not a JSON object, an unknown field, or a value of the wrong type.
 */
export function readDoctorConfig(
  env: Readonly<Record<string, string | undefined>>,
  fileText?: string,
): DoctorConfig {
  let file: Record<string, unknown> = {};
  if (fileText !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fileText);
    } catch {
      throw new WalletConfigError('config', 'is not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new WalletConfigError('config', 'must be a JSON object of doctor settings');
    }
    file = parsed as Record<string, unknown>;
    const unknown = Object.keys(file).find((key) => !Object.hasOwn(FIELDS, key));
    if (unknown !== undefined) {
      throw new WalletConfigError(
        `config.${unknown}`,
        `is not a doctor setting: one of ${Object.keys(FIELDS).join(', ')}`,
      );
    }
  }
  const config: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(FIELDS)) {
    const text = field.env === undefined ? undefined : env[field.env];
    if (text !== undefined && text !== '' && field.env !== undefined) {
      config[name] = checkValue(field.kind, fromEnvironment(field.kind, text, field.env), field.env);
    } else if (file[name] !== undefined) {
      config[name] = checkValue(field.kind, file[name], `config.${name}`);
    }
  }
  return config as DoctorConfig;
}

import { isWalletError, WalletClient, WalletConfigError } from '../../index.js';
import { CliError } from '../errors.js';
import type { CliIo } from '../io.js';
import type { FlagOption, StringOption } from './command.js';

/** `--base-url URL`, shared by every command that calls the API. */
export const BASE_URL_OPTION = {
  type: 'string',
  value: 'URL',
  help: 'API base URL (default: $WALLET_BASE_URL)',
} as const satisfies StringOption;

/** `--allow-insecure-http`, the command line's `allowInsecureHttp: true`. */
export const ALLOW_INSECURE_HTTP_OPTION = {
  type: 'boolean',
  help: 'allow plain http to a host that is not this machine,\nsuch as http://sandbox:4010; the API key goes in clear',
} as const satisfies FlagOption;

/** The options of every command that calls the API, to spread into its `options`. */
export const API_OPTIONS = {
  'base-url': BASE_URL_OPTION,
  'allow-insecure-http': ALLOW_INSECURE_HTTP_OPTION,
} as const;

/** The environment of every command that calls the API, for its help. */
export const API_ENVIRONMENT = {
  WALLET_API_KEY: 'merchant API key (required; never taken as a flag)',
  WALLET_BASE_URL: 'API base URL, unless --base-url is given',
};

/**
 * The client of `status` and `reconcile`. The API key comes from `WALLET_API_KEY` only, never
 * from a flag, so it stays out of shell history and process listings.
 *
 * @throws {WalletConfigError} naming the environment variable or flag to set, since the SDK's
 *   own messages speak of options that the command line spells differently.
 */
export function createCliClient(
  io: CliIo,
  baseUrlOption: string | undefined,
  allowInsecureHttp = false,
): WalletClient {
  const apiKey = io.env.WALLET_API_KEY;
  if (!apiKey) throw new WalletConfigError('WALLET_API_KEY', 'is not set: export the merchant API key');
  const baseUrl = baseUrlOption ?? io.env.WALLET_BASE_URL;
  if (!baseUrl) throw new WalletConfigError('WALLET_BASE_URL', 'is not set: export it or pass --base-url');
  try {
    return new WalletClient({ apiKey, baseUrl, allowInsecureHttp });
  } catch (error) {
    if (!isWalletError(error) || !error.message.includes('allowInsecureHttp: true')) throw error;
    throw new CliError(
      `${baseUrlOption === undefined ? 'WALLET_BASE_URL' : '--base-url'}: must use https for ${new URL(baseUrl).host}: plain http is allowed to loopback hosts, or to others with --allow-insecure-http`,
    );
  }
}

/**
 * A connection failure says which API it could not reach: the SDK's message names the
 * endpoint and the network error, not the host, which is what a wrong `WALLET_BASE_URL` needs.
 */
export function nameHost(error: unknown, wallet: WalletClient): unknown {
  if (!isWalletError(error)) return error;
  if (error.name !== 'WalletConnectionError' && error.name !== 'WalletTimeoutError') return error;
  return new CliError(`cannot reach ${new URL(wallet.baseUrl).host}: ${error.message}`);
}

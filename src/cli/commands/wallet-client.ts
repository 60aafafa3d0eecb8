import { WalletClient, WalletConfigError } from '../../index.js';
import type { CliIo } from '../io.js';
import type { StringOption } from './command.js';

/** `--base-url URL`, shared by every command that calls the API. */
export const BASE_URL_OPTION = {
  type: 'string',
  value: 'URL',
  help: 'API base URL (default: $WALLET_BASE_URL)',
} as const satisfies StringOption;

/** The environment of every command that calls the API, for its help. */
export const API_ENVIRONMENT = {
  WALLET_API_KEY: 'merchant API key (required; never taken as a flag)',
  WALLET_BASE_URL: 'API base URL, unless --base-url is given',
};

/**
 * The client of `status` and `reconcile`. The API key comes from `WALLET_API_KEY` only, never
 * from a flag, so it stays out of shell history and process listings.
 *
 * @throws {WalletConfigError} naming the environment variable to set, since the SDK's own
 *   message suggests passing the value, which the command line does not offer.
 */
export function createCliClient(io: CliIo, baseUrl: string | undefined): WalletClient {
  const apiKey = io.env.WALLET_API_KEY;
  if (!apiKey) throw new WalletConfigError('WALLET_API_KEY', 'is not set: export the merchant API key');
  const url = baseUrl ?? io.env.WALLET_BASE_URL;
  if (!url) throw new WalletConfigError('WALLET_BASE_URL', 'is not set: export it or pass --base-url');
  return new WalletClient({ apiKey, baseUrl: url });
}

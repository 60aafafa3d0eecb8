import { type CheckResult, type DoctorCheck, fail, pass, skip } from '../check.js';
import { httpUrl, isLoopback, originOf } from '../hosts.js';

const TLS_CODES = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|EPROTO/;

/** `WALLET_BASE_URL` is an https address that answers as the wallet API. */
export const baseUrlCheck: DoctorCheck = {
  id: 'base-url',
  title: 'API base URL reachable over TLS',
  async run({ config, probe }): Promise<CheckResult> {
    const url = httpUrl(config.baseUrl);
    if (config.baseUrl === undefined) {
      return fail('base_url_missing', 'no base URL is set', 'set WALLET_BASE_URL to the API address');
    }
    if (url === undefined) {
      return fail(
        'base_url_invalid',
        'the base URL is not an http(s) URL',
        'set WALLET_BASE_URL to the API address, such as https://api.wallet.example',
      );
    }
    const where = originOf(url);
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && config.allowInsecureHttp !== true) {
      return fail(
        'plain_http',
        `${where} uses plain http: the API key would cross the network in clear`,
        `use the https address of the API in WALLET_BASE_URL`,
      );
    }
    const found = await probe();
    if (found.kind === 'refused') {
      return fail('base_url_invalid', found.reason, 'set WALLET_BASE_URL to the https address of the API');
    }
    if (found.kind === 'unreachable') {
      return TLS_CODES.test(found.cause)
        ? fail(
            'tls',
            `${where}: the TLS handshake failed (${found.cause})`,
            `serve a valid certificate chain for ${url.hostname}, or correct the host in WALLET_BASE_URL`,
          )
        : fail(
            'unreachable',
            `cannot reach ${where} (${found.cause})`,
            `check the host and port of WALLET_BASE_URL, and that this machine may reach it (DNS, firewall, proxy)`,
          );
    }
    if ((found.code === undefined || found.code === 'unknown_error') && found.status === 404) {
      return fail(
        'not_the_api',
        `${where} answers HTTP 404 without a wallet error code: the path is not the API's`,
        'set WALLET_BASE_URL to the address the API paths follow (…/merchants/transactions/… comes after it)',
      );
    }
    return pass(
      url.protocol === 'https:'
        ? `${where} answers over TLS`
        : `${where} answers (plain http on this machine)`,
    );
  },
};

type Environment = 'sandbox' | 'live';

/** What a key's form says of its environment: `sk_sandbox_…`, `…_test_…` or `…_live_…`. */
function keyEnvironment(key: string): Environment | undefined {
  if (/(^|[_-])(sandbox|test)([_-]|$)/i.test(key)) return 'sandbox';
  if (/(^|[_-])(live|prod|production)([_-]|$)/i.test(key)) return 'live';
  return undefined;
}

/** This machine, or a host named like a test environment, is a sandbox; any other host is live. */
function urlEnvironment(url: URL): Environment {
  if (isLoopback(url.hostname)) return 'sandbox';
  const words = url.hostname.split(/[.-]/);
  return words.some((word) => /^(sandbox|test|testing|staging|stage|dev|uat)$/i.test(word))
    ? 'sandbox'
    : 'live';
}

/** A sandbox key against a live address, or a live key against a sandbox. */
export const environmentCheck: DoctorCheck = {
  id: 'environment',
  title: 'API key and base URL of one environment',
  needs: ['base-url'],
  async run({ config }): Promise<CheckResult> {
    const url = httpUrl(config.baseUrl) as URL;
    const key = config.apiKey === undefined ? undefined : keyEnvironment(config.apiKey);
    if (key === undefined) return pass("the key's form does not say its environment; nothing to compare");
    const address = urlEnvironment(url);
    if (key === address) return pass(`a ${key} key against a ${address} address`);
    return key === 'sandbox'
      ? fail(
          'sandbox_key_on_live_url',
          `WALLET_API_KEY is a sandbox key, but ${originOf(url)} is not a sandbox address`,
          'use the live key from the merchant portal with the live URL, or point WALLET_BASE_URL at the sandbox',
        )
      : fail(
          'live_key_on_sandbox_url',
          `WALLET_API_KEY is a live key, but ${originOf(url)} is a sandbox address`,
          'use the sandbox key with the sandbox URL, or point WALLET_BASE_URL at the live API',
        );
  },
};

/** The key is accepted: a read that tells `invalid_api_key` from `transaction_not_found`. */
export const apiKeyCheck: DoctorCheck = {
  id: 'api-key',
  title: 'API key accepted',
  needs: ['base-url', 'environment'],
  async run({ config, probe }): Promise<CheckResult> {
    if (config.apiKey === undefined) {
      return fail(
        'api_key_missing',
        'no API key is set',
        'export WALLET_API_KEY (read -rs WALLET_API_KEY && export WALLET_API_KEY)',
      );
    }
    const found = await probe();
    if (found.kind !== 'answered') return skip('the API did not answer');
    switch (found.code) {
      case undefined:
      case 'transaction_not_found':
      case 'transaction_access_forbidden':
        return pass(
          `the service accepted the key (a read of an unknown transaction answered ${found.code ?? `HTTP ${found.status}`})`,
        );
      case 'invalid_api_key':
        return fail(
          'invalid_api_key',
          'the service does not know this key (invalid_api_key)',
          'copy the API key of this environment from the merchant portal into WALLET_API_KEY; sandbox and live keys are not interchangeable',
        );
      case 'missing_api_key':
        return fail(
          'api_key_not_sent',
          'the service received no key (missing_api_key)',
          'something between here and the service (a proxy, a gateway) drops the x-api-key header: let it through',
        );
      default:
        return fail(
          'unexpected_answer',
          `a status read answered ${found.code} (HTTP ${found.status})`,
          'check WALLET_BASE_URL, then ask the service whether the merchant account is active',
        );
    }
  },
};

/** Whole seconds and minutes of a duration, for messages. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** This machine's clock against the `Date` the service answered with. */
export const clockSkewCheck: DoctorCheck = {
  id: 'clock-skew',
  title: 'clock in step with the service',
  needs: ['base-url'],
  async run({ config, probe }): Promise<CheckResult> {
    const found = await probe();
    if (found.kind !== 'answered' || found.serverDate === undefined) {
      return skip('the service sent no Date header to compare with');
    }
    const skew = found.receivedAt - found.serverDate;
    const limit = config.maxClockSkewMs ?? 30_000;
    // The header has whole seconds: up to a second of difference is its rounding.
    if (Math.abs(skew) <= Math.max(limit, 1_000))
      return pass(`within ${duration(Math.max(Math.abs(skew), 1000))} of the service's clock`);
    return fail(
      'clock_skew',
      `this machine's clock is ${duration(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} the service's`,
      "synchronise the clock with NTP (chrony, systemd-timesyncd): login windows, leases and the sweeper's schedule read it",
    );
  },
};

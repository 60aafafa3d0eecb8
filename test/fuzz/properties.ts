import { inspect } from 'node:util';
import fc from 'fast-check';
import { isWalletErrorCode } from '../../src/error-codes.js';
import { parseDateCompleted, WalletClient, WalletError, WalletLoginUrlError } from '../../src/index.js';
import { buildLoginUrl } from '../../src/login.js';
import { readErrorBody } from '../../src/transport/error-body.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';

/** One property and how to check it with a number of runs. */
export interface FuzzProperty {
  readonly name: string;
  readonly check: (numRuns: number, seed?: number) => Promise<void> | void;
}

const API_KEY = 'sk_fuzz_secret_key';

/** Anything a JSON error body could be, plus raw bytes decoded leniently. */
const anyBody = fc.oneof(fc.jsonValue(), fc.anything(), fc.string(), fc.constant(null));

function failsOnlyWith(error: unknown, kind: abstract new (...args: never[]) => Error): void {
  if (!(error instanceof kind)) throw new Error(`threw ${inspect(error)} instead of ${kind.name}`);
}

/** Every property the fuzz runs check. */
export const properties: readonly FuzzProperty[] = [
  {
    name: 'readErrorBody reads any value without throwing and yields a known code or unknown_error',
    check: (numRuns, seed) =>
      fc.assert(
        fc.property(anyBody, (body) => {
          const { code, message } = readErrorBody(body);
          if (code !== 'unknown_error' && !isWalletErrorCode(code)) throw new Error(`bad code ${code}`);
          if (message !== undefined && typeof message !== 'string') throw new Error('bad message');
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      ),
  },
  {
    name: 'the client turns any HTTP status and body into a result or a WalletError, never another error',
    check: (numRuns, seed) => {
      const response = fc.record({
        status: fc.integer({ min: 200, max: 599 }),
        body: fc.oneof(
          fc.string(),
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.uint8Array().map((bytes) => new TextDecoder().decode(bytes)),
        ),
      });
      return fc.assert(
        fc.asyncProperty(response, async ({ status, body }) => {
          const fetch = async () =>
            new Response(status === 204 || status === 205 || status === 304 ? null : body, { status });
          const client = new WalletClient({
            apiKey: API_KEY,
            baseUrl: 'https://api.fuzz.test',
            maxRetries: 0,
            fetch,
          });
          const error = await client.getTransaction('txn_1').then(
            () => undefined,
            (reason: unknown) => reason,
          );
          if (error === undefined) return;
          failsOnlyWith(error, WalletError);
          if (inspect(error, { depth: 10, showHidden: true }).includes(API_KEY))
            throw new Error('API key leaked');
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      );
    },
  },
  {
    name: 'parseWebhookEvent accepts or throws WalletWebhookError for any string, bytes or value',
    check: (numRuns, seed) => {
      const input = fc.oneof(
        fc.string(),
        fc.jsonValue().map((value) => JSON.stringify(value)),
        fc.uint8Array(),
        fc.anything(),
        fc.record({
          event: fc.constantFrom('user_authorized', 'transaction', 'other'),
          token: fc.anything(),
          user_email: fc.anything(),
          transaction_id: fc.anything(),
          transaction_status: fc.anything(),
        }),
      );
      return fc.assert(
        fc.property(input, (body) => {
          try {
            parseWebhookEvent(body as string);
          } catch (error) {
            failsOnlyWith(error, WalletError);
            if ((error as WalletError).name !== 'WalletWebhookError') throw error;
          }
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      );
    },
  },
  {
    name: 'buildLoginUrl round-trips app_id and redirect_url for any valid input',
    check: (numRuns, seed) => {
      const httpsUrl = fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true });
      const authUrl = fc.webUrl({ validSchemes: ['https'] });
      const appId = fc
        .string({ minLength: 1 })
        .filter((value) => value.trim().length > 0 && !/\p{Cs}/u.test(value));
      return fc.assert(
        fc.property(authUrl, appId, httpsUrl, (auth, app, redirect) => {
          let built: string;
          try {
            built = buildLoginUrl({ authUrl: auth, appId: app, redirectUrl: redirect });
          } catch (error) {
            // fast-check's web URLs may carry credentials, which are refused by design.
            failsOnlyWith(error, WalletLoginUrlError);
            if (!/credentials/.test((error as Error).message)) throw error;
            return;
          }
          const parsed = new URL(built);
          if (parsed.searchParams.get('app_id') !== app) throw new Error(`app_id changed: ${built}`);
          if (parsed.searchParams.get('redirect_url') !== new URL(redirect).href)
            throw new Error(`redirect changed: ${built}`);
          if (!parsed.pathname.endsWith('/login')) throw new Error(`path lost: ${built}`);
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      );
    },
  },
  {
    name: 'buildLoginUrl throws only WalletLoginUrlError for any input',
    check: (numRuns, seed) =>
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything(),
            fc.record(
              {
                authUrl: fc.oneof(fc.string(), fc.webUrl(), fc.anything()),
                appId: fc.anything(),
                redirectUrl: fc.oneof(fc.string(), fc.webUrl(), fc.anything()),
                allowedRedirectHosts: fc.anything(),
              },
              { requiredKeys: [] },
            ),
          ),
          (options) => {
            try {
              buildLoginUrl(options as never);
            } catch (error) {
              failsOnlyWith(error, WalletLoginUrlError);
            }
          },
        ),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      ),
  },
  {
    name: 'parseDateCompleted returns the same instant for any real date and throws only WalletError otherwise',
    check: (numRuns, seed) => {
      const validDate = fc.date({
        min: new Date('1000-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59Z'),
        noInvalidDate: true,
      });
      return fc.assert(
        fc.property(fc.oneof(validDate, fc.anything(), fc.integer(), fc.double()), (value) => {
          if (value instanceof Date) {
            const whole = new Date(Math.floor(value.getTime() / 1000) * 1000);
            const digits = Number(whole.toISOString().replace(/\D/g, '').slice(0, 14));
            if (parseDateCompleted(digits).getTime() !== whole.getTime())
              throw new Error(`round trip failed for ${digits}`);
            return;
          }
          try {
            parseDateCompleted(value as number);
          } catch (error) {
            failsOnlyWith(error, WalletError);
          }
        }),
        { numRuns, ...(seed === undefined ? {} : { seed }) },
      );
    },
  },
];

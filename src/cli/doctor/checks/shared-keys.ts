import type { PaymentJournal } from '../../../index.js';
import { journalHealth } from '../../../settlement/health.js';
import { type CheckResult, type DoctorCheck, pass, skip, warn } from '../check.js';

/**
 * One merchant, one identity: no API key in the journal paid under several merchant identities. An
 * identity is made of the API key and the base URL exactly as configured, so instances of one
 * merchant whose base URLs differ (an IP address and a host name, a trailing `/`) run as two
 * merchants, and neither sweeps nor recovers the other's payments. Read from the journal's intents
 * (`journalHealth().sharedKeys`): key fingerprints only, never a key.
 */
export const sharedKeysCheck: DoctorCheck = {
  id: 'shared-keys',
  title: 'one merchant identity per API key',
  needs: ['store-schema'],
  async run({ config, deps, store }): Promise<CheckResult> {
    let journal: PaymentJournal | undefined = deps.journal;
    if (journal === undefined && config.storeUrl !== undefined) journal = await (await store())?.journal();
    if (journal === undefined) return skip('no journal to read (WALLET_STORE_URL)');
    const { sharedKeys } = await journalHealth(journal);
    if (sharedKeys.length === 0) return pass('every API key in the journal pays under one merchant identity');
    const worst = sharedKeys.reduce((most, one) =>
      one.merchants.length > most.merchants.length ? one : most,
    );
    return warn(
      'shared_api_key',
      `${sharedKeys.length} API key(s) pay under several merchant identities in this journal: ${worst.keyFingerprint} under ${worst.merchants.length} (${worst.merchants.join(', ')})`,
      'configure one base URL string (scheme, host, port, trailing /) on every instance: the identity is the API key with the base URL as written, and instances of one identity never sweep nor recover the payments of another',
    );
  },
};

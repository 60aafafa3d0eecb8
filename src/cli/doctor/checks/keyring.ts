import { loadKeyring, type TokenKeyring } from '../../../auth/keyring.js';
import { isWalletError } from '../../../index.js';
import { type CheckResult, type DoctorCheck, fail, pass, skip } from '../check.js';

/**
 * The token vault's keyring loads as the vault loads it: a primary that names one of the keys, and
 * every key 32 bytes. The keyring's own checks are the rule (`loadKeyring`), so the doctor never
 * disagrees with the vault; their messages name key ids, never keys.
 */
export const keyringCheck: DoctorCheck = {
  id: 'keyring',
  title: 'token keyring valid',
  async run({ config }): Promise<CheckResult> {
    const keyring = config.keyring;
    if (keyring === undefined)
      return skip('no keyring is set (WALLET_TOKEN_KEYS); the token vault is not checked');
    try {
      const loaded = loadKeyring(keyring as TokenKeyring);
      const count = Object.keys(keyring.keys as object).length;
      return pass(`primary "${loaded.primary}" and ${count} key(s) of 32 bytes`);
    } catch (error) {
      if (!isWalletError(error)) throw error;
      const message = error.message.replace(/^keys\./, 'keyring.');
      if (/keys\.primary/.test(error.message)) {
        return fail(
          'keyring_no_primary',
          message,
          'set "primary" to the id of the key new tokens are sealed with, and keep that key in "keys"',
        );
      }
      if (/must be \d+ bytes/.test(error.message)) {
        return fail(
          'keyring_key_size',
          message,
          'generate 32-byte keys: node -e "console.log(crypto.randomBytes(32).toString(\'base64\'))"',
        );
      }
      return fail(
        'keyring_invalid',
        message,
        'write WALLET_TOKEN_KEYS as { "primary": "k1", "keys": { "k1": "<32 bytes in base64>" } }',
      );
    }
  },
};

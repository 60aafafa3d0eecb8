import { describe, expectTypeOf, test } from 'vitest';
import type * as main from '../../src/index.js';
import type * as login from '../../src/login.js';
import type * as webhooks from '../../src/webhooks/index.js';

/** The names a sub-entry exports that the main barrel lacks; `never` when none is missing. */
type MissingValues<Entry> = Exclude<keyof Entry, keyof typeof main>;

describe('the main barrel re-exports every value of every sub-entry except testing', () => {
  test('every value merchant-wallet/webhooks exports is exported by merchant-wallet', () => {
    expectTypeOf<MissingValues<typeof webhooks>>().toEqualTypeOf<never>();
  });

  test('every value merchant-wallet/login exports is exported by merchant-wallet', () => {
    expectTypeOf<MissingValues<typeof login>>().toEqualTypeOf<never>();
  });
});

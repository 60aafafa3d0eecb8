import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { merchantIdentity, sha256Hex } from '../../src/client/merchant-identity.js';

test('sha256Hex agrees with node:crypto on any text, across block boundaries', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }),
    { numRuns: 300 },
  );
  for (const length of [0, 55, 56, 63, 64, 65, 119, 120, 1000]) {
    const text = 'x'.repeat(length);
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  }
});

test('a merchant identity names key and base URL apart, and holds neither', () => {
  const identity = merchantIdentity('sk_live_secret', 'https://api.example.com/');
  expect(identity).toMatch(/^mw1:[0-9a-f]{32}$/);
  expect(identity).toBe(merchantIdentity('sk_live_secret', 'https://api.example.com/'));
  expect(identity).not.toBe(merchantIdentity('sk_live_other', 'https://api.example.com/'));
  expect(identity).not.toBe(merchantIdentity('sk_live_secret', 'https://sandbox.example.com/'));
  expect(identity).not.toContain('sk_live_secret');
});

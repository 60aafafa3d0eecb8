import { describe, expect, test } from 'vitest';
import { CHANGING_FIELDS, FIXED_FIELDS, INTENT_FIELDS } from '../../src/stores/redis/intent-fields.js';
import { knownIntents } from '../../src/stores/redis/known-intents.js';

const fixed = (referenceId: string) => [
  referenceId,
  'deposit',
  '{"amount":1}',
  'mw1:m',
  null,
  null,
  null,
  null,
  '2026-01-01T00:00:00.000Z',
];
const changes = (state: string) =>
  CHANGING_FIELDS.map((field) =>
    field === 'state' ? state : field === 'updatedAt' ? '2026-01-01T00:00:01.000Z' : null,
  );

describe('the intents a Redis journal remembers', () => {
  test('every answer is the fixed fields followed by the changing ones', () => {
    expect(INTENT_FIELDS).toEqual([...FIXED_FIELDS, ...CHANGING_FIELDS]);
    expect(fixed('r')).toHaveLength(FIXED_FIELDS.length);
  });

  test('an answer of changes joins the fixed fields of the intent it was sent for', () => {
    const known = knownIntents();
    known.remember('r', '7', fixed('r'));
    const sent = known.lookup('r');
    expect(sent?.seq).toBe('7');
    expect(known.read('r', sent, changes('unknown'))).toMatchObject({
      referenceId: 'r',
      endpoint: 'deposit',
      body: { amount: 1 },
      merchant: 'mw1:m',
      state: 'unknown',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:01.000Z',
      records: 1,
    });
    // Still remembered while open; forgotten once definite.
    expect(known.lookup('r')).toBe(sent);
    known.read('r', sent, changes('completed'));
    expect(known.lookup('r')).toBeUndefined();
  });

  test('a whole answer, or none, forgets the intent sent for; a later entry stays', () => {
    const known = knownIntents();
    known.remember('r', '7', fixed('r'));
    const sent = known.lookup('r');
    const whole = [...fixed('r'), ...changes('sending')];
    expect(known.read('r', sent, whole)?.state).toBe('sending');
    expect(known.lookup('r')).toBeUndefined();
    known.remember('r', '8', fixed('r'));
    const later = known.lookup('r');
    known.read('r', sent, null);
    expect(known.lookup('r')).toBe(later);
  });

  test('it holds at most its limit, forgetting the oldest first', () => {
    const known = knownIntents(3);
    for (const id of ['a', 'b', 'c', 'd']) known.remember(id, id, fixed(id));
    expect(['a', 'b', 'c', 'd'].map((id) => known.lookup(id)?.seq)).toEqual([undefined, 'b', 'c', 'd']);
  });
});

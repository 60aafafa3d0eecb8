import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inTurn } from '../../bench/in-turn.js';

describe('inTurn (the journal bench’s order of set-ups)', () => {
  it('runs every set-up once a round, and none first twice within as many rounds as there are set-ups', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 12 }), (setups) => {
        const firsts = new Set<string>();
        for (let round = 0; round < setups.length; round++) {
          const order = inTurn(setups, round);
          expect([...order].sort()).toEqual([...setups].sort());
          firsts.add(order[0]!);
        }
        expect(firsts.size).toBe(setups.length);
      }),
    );
  });

  it('keeps the set-ups’ relative order, starting one further along each round', () => {
    expect(inTurn(['none', 'memory', 'redis'], 0)).toEqual(['none', 'memory', 'redis']);
    expect(inTurn(['none', 'memory', 'redis'], 1)).toEqual(['memory', 'redis', 'none']);
    expect(inTurn(['none', 'memory', 'redis'], 4)).toEqual(['memory', 'redis', 'none']);
  });
});

import { describe, expect, test } from 'vitest';
import { BodyCollector, UnreadableBody } from '../../src/transport/body-reader.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('BodyCollector', () => {
  test('an empty body is the empty string', () => {
    expect(new BodyCollector(10).text()).toBe('');
  });

  test('a body in one chunk is decoded as it is', () => {
    const collector = new BodyCollector(100);
    collector.add(bytes('{"id":"txn_1"}'));
    expect(collector.text()).toBe('{"id":"txn_1"}');
  });

  test('chunks are joined in order, a character split between two of them included', () => {
    const euro = bytes('€'); // three bytes
    const collector = new BodyCollector(100);
    collector.add(bytes('{"a":"'));
    collector.add(euro.subarray(0, 1));
    collector.add(euro.subarray(1));
    collector.add(bytes('"}'));
    expect(collector.text()).toBe('{"a":"€"}');
  });

  test('a body past maxBytes is refused at the chunk that passes it', () => {
    const collector = new BodyCollector(8);
    collector.add(bytes('12345'));
    expect(() => collector.add(bytes('6789'))).toThrow(UnreadableBody);
    expect(() => collector.add(bytes('6789'))).toThrow('larger than maxResponseBytes (8 bytes)');
  });

  test('bytes that are not UTF-8 make the body unreadable, in one chunk or across several', () => {
    const one = new BodyCollector(100);
    one.add(Uint8Array.of(0x7b, 0xff, 0x7d));
    expect(() => one.text()).toThrow('body is not valid UTF-8');

    const several = new BodyCollector(100);
    several.add(bytes('{"a":"'));
    several.add(Uint8Array.of(0xe2, 0x82)); // a character cut short
    several.add(bytes('"}'));
    expect(() => several.text()).toThrow(UnreadableBody);
  });
});

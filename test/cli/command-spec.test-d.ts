import { describe, expectTypeOf, test } from 'vitest';
import { defineCommand } from '../../src/cli/commands/command.js';

describe('a declared command spec types the input its run receives', () => {
  test('integers, choices and defaulted or required strings arrive as their checked types', () => {
    defineCommand({
      name: 'example',
      summary: 'an example',
      description: 'An example.',
      options: {
        flag: { type: 'boolean', help: 'a flag' },
        port: { type: 'integer', value: 'N', min: 0, max: 9, default: 1, help: 'a port' },
        limit: { type: 'integer', value: 'N', min: 0, max: 9, help: 'no default' },
        shape: { type: 'choice', value: 'S', choices: ['a', 'b'], default: 'a', help: 'a shape' },
        url: { type: 'string', value: 'URL', required: true, help: 'required' },
        host: { type: 'string', value: 'HOST', default: 'localhost', help: 'defaulted' },
        name: { type: 'string', value: 'NAME', help: 'optional' },
        tag: { type: 'string', value: 'TAG', multiple: true, help: 'repeatable' },
      },
      positionals: { name: 'arguments', min: 0, max: 0 },
      async run({ options, positionals }) {
        expectTypeOf(options.flag).toEqualTypeOf<boolean>();
        expectTypeOf(options.port).toEqualTypeOf<number>();
        expectTypeOf(options.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(options.shape).toEqualTypeOf<'a' | 'b'>();
        expectTypeOf(options.url).toEqualTypeOf<string>();
        expectTypeOf(options.host).toEqualTypeOf<string>();
        expectTypeOf(options.name).toEqualTypeOf<string | undefined>();
        expectTypeOf(options.tag).toEqualTypeOf<readonly string[] | undefined>();
        expectTypeOf(positionals).toEqualTypeOf<readonly string[]>();
        // @ts-expect-error an option the spec does not declare
        void options.other;
        return 0;
      },
    });
  });
});

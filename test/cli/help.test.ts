import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { formatCommandHelp } from '../../src/cli/help.js';

describe('every command help is generated from its declared spec', () => {
  test.each(COMMANDS.map((command) => [command.name, command] as const))(
    '%s --help lists every declared option with its placeholder, choices and default',
    (_name, command) => {
      const help = formatCommandHelp(command);
      for (const [name, spec] of Object.entries(command.options)) {
        const label = spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value}`;
        expect(help).toContain(`  ${label} `);
        expect(help.split('\n')[0]).toContain(label);
        if (spec.type === 'choice') expect(help).toContain(spec.choices.join(', '));
        if (spec.type !== 'boolean' && spec.default !== undefined) {
          expect(help).toContain(`(default: ${spec.default})`);
        }
      }
      expect(help).toContain('  -h, --help ');
      for (const variable of Object.keys(command.environment ?? {})) expect(help).toContain(`  ${variable} `);
    },
  );

  test('option texts start in the same column within a help', () => {
    for (const command of COMMANDS) {
      const rows = formatCommandHelp(command)
        .split('\n')
        .filter((line) => /^ {2}(--|-h|WALLET_)/.test(line));
      const columns = new Set(rows.map((row) => /^ {2}\S+(?: \S+)* {3,}/.exec(row)?.[0].length));
      expect(columns.size, command.name).toBe(1);
    }
  });
});

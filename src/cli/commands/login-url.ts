import { buildLoginUrl } from '../../login.js';
import { parseCommandArgs } from '../args.js';
import { UsageError } from '../errors.js';
import type { Command } from './command.js';

const OPTIONS = {
  'auth-url': { type: 'string' },
  'app-id': { type: 'string' },
  'redirect-url': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
} as const;

const HELP = `Usage: merchant-wallet login-url --auth-url URL --app-id ID --redirect-url URL [--allow-host HOST ...]

Prints the address of the wallet's login page to send a user's browser to,
as buildLoginUrl from merchant-wallet/login builds it. Both URLs must use
https, except on loopback hosts.

Options:
  --auth-url URL       the service's auth URL
  --app-id ID          your application id
  --redirect-url URL   where the user lands after logging in
  --allow-host HOST    a host the redirect URL may point at ("host", "host:port"
                       or "*.domain"); repeat for several; any host when absent
  -h, --help           show this help
`;

/** `merchant-wallet login-url`: `buildLoginUrl` from the shell. */
export const loginUrlCommand: Command = {
  name: 'login-url',
  summary: 'print the login page URL for a user to approve your app',
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandArgs(args, {
      command: 'login-url',
      options: OPTIONS,
      positionals: { min: 0, max: 0, name: 'arguments' },
    });
    if (parsed.help) {
      io.out(HELP);
      return 0;
    }
    const { values } = parsed;
    const missing = (['auth-url', 'app-id', 'redirect-url'] as const).filter(
      (name) => values[name] === undefined,
    );
    if (missing.length > 0) {
      throw new UsageError(`missing ${missing.map((name) => `--${name}`).join(', ')}`, 'login-url');
    }
    const hosts = values['allow-host'];
    io.out(
      `${buildLoginUrl({
        authUrl: values['auth-url'] ?? '',
        appId: values['app-id'] ?? '',
        redirectUrl: values['redirect-url'] ?? '',
        ...(hosts === undefined ? {} : { allowedRedirectHosts: hosts }),
      })}\n`,
    );
    return 0;
  },
};

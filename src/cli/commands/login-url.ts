import { buildLoginUrl } from '../../login.js';
import { defineCommand } from './command.js';

/** `merchant-wallet login-url`: `buildLoginUrl` from the shell. */
export const loginUrlCommand = defineCommand({
  name: 'login-url',
  summary: 'print the login page URL for a user to approve your app',
  description: `Prints the address of the wallet's login page to send a user's browser to,
as buildLoginUrl from merchant-wallet/login builds it. Both URLs must use
https, except on loopback hosts.`,
  options: {
    'auth-url': { type: 'string', value: 'URL', required: true, help: "the service's auth URL" },
    'app-id': { type: 'string', value: 'ID', required: true, help: 'your application id' },
    'redirect-url': {
      type: 'string',
      value: 'URL',
      required: true,
      help: 'where the user lands after logging in',
    },
    'allow-host': {
      type: 'string',
      value: 'HOST',
      multiple: true,
      help: 'a host the redirect URL may point at ("host", "host:port"\nor "*.domain"); repeat for several; any host when absent',
    },
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  async run({ options }, io) {
    const hosts = options['allow-host'];
    const url = buildLoginUrl({
      authUrl: options['auth-url'],
      appId: options['app-id'],
      redirectUrl: options['redirect-url'],
      ...(hosts === undefined ? {} : { allowedRedirectHosts: [...hosts] }),
    });
    io.out(`${url}\n`);
    return 0;
  },
});

/** Whether `hostname` (as `URL.hostname` gives it) is this machine. */
export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '[::1]' ||
    hostname === '::1'
  );
}

/** The URL, or `undefined` when `text` is not an absolute http(s) URL. */
export function httpUrl(text: string | undefined): URL | undefined {
  if (text === undefined || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** `scheme://host` of a URL, for messages: never its path, query or credentials. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * `scheme://host/path` of a URL for messages, never its query or credentials, and with any path
 * segment that looks like a token (16 characters or more of letters and digits mixed) masked:
 * unsigned webhooks are often guarded by a secret in their path.
 */
export function displayUrl(url: URL): string {
  const path = url.pathname
    .split('/')
    .map((segment) => (segment.length >= 16 && /\d/.test(segment) && /[a-z]/i.test(segment) ? '…' : segment))
    .join('/');
  return `${originOf(url)}${path}`;
}

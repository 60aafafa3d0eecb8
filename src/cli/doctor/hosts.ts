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

/** What the "browser" saw while going through the login page. */
export interface LoginVisit {
  /** `<title>` of the login page. */
  readonly pageTitle: string;
  /** Where the service sent the browser after the decision (`303 Location`). */
  readonly redirectedTo: string;
  /** HTTP status of the merchant page the browser then landed on. */
  readonly landingStatus: number;
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

function decodeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => HTML_ENTITIES[name] ?? '');
}

/** The form's action and hidden fields, read from the page as a browser would submit them. */
function readForm(html: string, pageUrl: string): { action: URL; fields: URLSearchParams } {
  const action = /<form[^>]*\saction="([^"]*)"/.exec(html)?.[1];
  if (action === undefined) throw new Error('the login page has no form');
  const fields = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields.append(decodeHtml(name ?? ''), decodeHtml(value ?? ''));
  }
  return { action: new URL(decodeHtml(action), pageUrl), fields };
}

/**
 * Opens `loginUrl`, types `email` and presses the button for `decision`, over real HTTP with
 * the requests a browser makes: GET the page, POST the form urlencoded, follow the 303.
 */
export async function submitLoginPage(
  loginUrl: string,
  email: string,
  decision: 'approve' | 'deny',
): Promise<LoginVisit> {
  const page = await fetch(loginUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the login page answered HTTP ${page.status}`);
  const { action, fields } = readForm(html, page.url);
  fields.set('email', email);
  fields.set('decision', decision);
  const answer = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  await answer.body?.cancel();
  const location = answer.headers.get('location');
  if (answer.status !== 303 || location === null) {
    throw new Error(`the form answered HTTP ${answer.status} instead of a redirect`);
  }
  const landing = await fetch(location);
  await landing.body?.cancel();
  return {
    pageTitle: decodeHtml(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    redirectedTo: location,
    landingStatus: landing.status,
  };
}

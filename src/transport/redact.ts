const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of the given secrets inside a value (strings, and
 * strings nested in arrays and plain objects, object keys included) so that an
 * error body echoing a key or token, even as a JSON key, can be kept without keeping the secret.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const present = secrets.filter((secret) => secret.length > 0);
  if (present.length === 0) return value;
  return redactValue(value, present, 0) as T;
}

function redactText(text: string, secrets: readonly string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join(REDACTED), text);
}

function redactValue(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  // Past this depth nothing is kept: a body nested so deep is not worth the risk of missing a secret.
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  // fromEntries defines own properties, so a `__proto__` key stays a key and never becomes a prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      redactText(key, secrets),
      redactValue(item, secrets, depth + 1),
    ]),
  );
}

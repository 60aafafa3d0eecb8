const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of the given secrets inside a value (strings, and
 * strings nested in arrays and plain objects) so that an error body echoing a
 * key or token can be kept without keeping the secret.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const present = secrets.filter((secret) => secret.length > 0);
  if (present.length === 0) return value;
  return redactValue(value, present, 0) as T;
}

function redactValue(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') {
    return secrets.reduce((text, secret) => text.split(secret).join(REDACTED), value);
  }
  if (typeof value !== 'object' || value === null) return value;
  // Past this depth nothing is kept: a body nested so deep is not worth the risk of missing a secret.
  if (depth > 20) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, secrets, depth + 1);
  return copy;
}

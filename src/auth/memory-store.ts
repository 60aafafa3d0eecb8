import { checkTokenStoreWrite, type TokenStore } from './token-store.js';

/**
 * A {@link TokenStore} in this process's memory: for tests, the sandbox and single-process apps.
 * Its rows are lost on restart, so users must connect again; use PostgreSQL or Redis in production.
 */
export function createMemoryTokenStore(): TokenStore {
  const rows = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const row = rows.get(key);
    if (row === undefined) return undefined;
    if (row.expiresAt > Date.now()) return row.value;
    rows.delete(key);
    return undefined;
  };
  return {
    async get(key) {
      return live(key);
    },
    async compareAndSet(key, expected, value, ttlMs) {
      checkTokenStoreWrite(key, value);
      if (live(key) !== expected) return false;
      if (value === undefined) rows.delete(key);
      else
        rows.set(key, {
          value,
          expiresAt: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs,
        });
      return true;
    },
    async scan(prefix, after, limit) {
      const keys = [...rows.keys()]
        .filter((key) => key.startsWith(prefix) && (after === undefined || key > after))
        .sort();
      const entries = [];
      for (const key of keys) {
        if (entries.length >= limit) break;
        const value = live(key);
        if (value !== undefined) entries.push({ key, value });
      }
      return entries;
    },
    async purgeExpired() {
      const before = rows.size;
      for (const key of [...rows.keys()]) live(key);
      return before - rows.size;
    },
  };
}

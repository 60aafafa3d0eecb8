/** A module loaded on first use: call it for the module, or read `loaded()` for it once it is there. */
export interface LazyModule<T> {
  (): Promise<T>;
  /** The module, once a call has loaded it; until then `undefined`. */
  loaded(): T | undefined;
}

/**
 * `load` (a dynamic `import()`) run on the first call and its module kept, so a hot path that asks
 * for it on every call waits for the chunk once, and once it is loaded can take it from `loaded()`
 * without a promise; a load that failed is tried again on the next call.
 */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  let module: T | undefined;
  const lazy = () => {
    loading ??= load().then(
      (loaded) => {
        module = loaded;
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return Object.assign(lazy, { loaded: () => module });
}

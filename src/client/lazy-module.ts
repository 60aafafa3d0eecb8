/**
 * `load` (a dynamic `import()`) run on the first call and its module kept, so a hot path that asks
 * for it on every call waits for the chunk once; a load that failed is tried again on the next call.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

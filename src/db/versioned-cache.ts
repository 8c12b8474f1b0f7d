/**
 * Values valid for one data version (see Store.dataVersion): a write anywhere makes every entry stale at
 * once, so what is served is never older than the last write. Read the version BEFORE reading the data a
 * value is built from, so a write landing in between can only make the entry stale, never wrong.
 * Bounded: the oldest keys go first.
 */
export function createVersionedCache<V>(limit: number) {
  const entries = new Map<string, { version: number; value: V }>();
  return {
    get(key: string, version: number): V | undefined {
      const entry = entries.get(key);
      return entry && entry.version === version ? entry.value : undefined;
    },
    set(key: string, version: number, value: V): void {
      entries.delete(key);
      if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
      entries.set(key, { version, value });
    },
  };
}

export type VersionedCache<V> = ReturnType<typeof createVersionedCache<V>>;

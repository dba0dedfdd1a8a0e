/**
 * A tiny Suspense cache keyed by string: one load per key however many components ask at once,
 * errors kept (so every reader throws the same typed error to its boundary), `preload` and `clear`.
 */
export interface AssetCache<T> {
  /** The value, or throws the pending promise (Suspense) or the load's error (error boundary). */
  read(key: string): T
  preload(key: string): Promise<T>
  /** Forget one key, or everything. A later read loads again. Nothing is disposed. */
  clear(key?: string): void
  /** The value if it has loaded, without suspending. */
  peek(key: string): T | undefined
  has(key: string): boolean
}

type Entry<T> =
  | { status: 'pending'; promise: Promise<T> }
  | { status: 'fulfilled'; promise: Promise<T>; value: T }
  | { status: 'rejected'; promise: Promise<T>; error: unknown }

export function createAssetCache<T>(load: (key: string) => Promise<T>): AssetCache<T> {
  const entries = new Map<string, Entry<T>>()

  function start(key: string): Entry<T> {
    const existing = entries.get(key)
    if (existing) return existing
    const promise = load(key)
    const entry: Entry<T> = { status: 'pending', promise }
    entries.set(key, entry)
    promise.then(
      (value) => {
        if (entries.get(key) === entry) entries.set(key, { status: 'fulfilled', promise, value })
      },
      (error: unknown) => {
        if (entries.get(key) === entry) entries.set(key, { status: 'rejected', promise, error })
      },
    )
    return entry
  }

  return {
    read(key) {
      const entry = start(key)
      if (entry.status === 'fulfilled') return entry.value
      if (entry.status === 'rejected') throw entry.error
      throw entry.promise
    },
    preload(key) {
      const { promise } = start(key)
      // A preload nobody awaits must not report an unhandled rejection; readers still see the error.
      promise.catch(() => {})
      return promise
    },
    clear(key) {
      if (key === undefined) entries.clear()
      else entries.delete(key)
    },
    peek(key) {
      const entry = entries.get(key)
      return entry?.status === 'fulfilled' ? entry.value : undefined
    },
    has(key) {
      return entries.has(key)
    },
  }
}

import { useEffect, useRef } from 'react'
import { MD2Error } from '../../core/MD2Error.js'
import { getLoadTimeout } from './loadTimeout.js'

/**
 * What a cache entry is found by: its URL and, where more makes two loads of it differ (request
 * headers, a loading manager, a skin name, a folder's listing), more fields. Keys are compared by
 * `sameKey`: two keys built from equal parts find the same entry.
 */
export interface AssetKey {
  readonly url: string
}

/**
 * A small Suspense cache keyed by `AssetKey`: one load per key however many components ask at once,
 * errors kept (every reader throws the same typed error to its boundary), `preload`, `clear`, and
 * holders: mounted components that still want a key. When the last holder of a key lets go (unmount,
 * or its URL changed) and nobody preloaded it, a load still in flight is aborted and forgotten, so the
 * next reader starts afresh instead of inheriting an `AbortError`; with `evictUnheld`, a loaded value
 * is forgotten too, so the cache holds what is mounted or preloaded. A load whose only reader suspended
 * and was then thrown away cannot be aborted (React runs no cleanup for a render it never committed, so
 * nothing tells it from a reader still waiting); once loaded, it goes if no reader comes back for it.
 * A load that has not settled within its timeout is aborted and fails with `LOAD_FAILED`; its readers
 * see that error, and the entry leaves the cache at once, so a later mount loads afresh.
 */
export interface AssetCache<K extends AssetKey, T> {
  /**
   * The value, or throws the pending promise (Suspense) or the load's error (error boundary). A load
   * this starts fails after `timeout` ms (default: `getLoadTimeout()`); the first starter's timeout counts.
   */
  read(key: K, timeout?: number): T
  /** Loads and keeps `key` until `clear` (a pinned entry is never evicted or aborted). */
  preload(key: K, timeout?: number): Promise<T>
  /** Loads `key` like a read, without pinning it: it goes when nobody holds it. */
  load(key: K, timeout?: number): Promise<T>
  /** Forget one key, or everything; loads in flight are aborted. A later read loads again. Nothing is disposed. */
  clear(key?: K): void
  /** The value if it has loaded, without suspending. */
  peek(key: K): T | undefined
  has(key: K): boolean
  /** Keys held, loading or loaded. */
  keys(): K[]
  /** Marks a committed user of `key` (starting its load, which fails after `timeout` as `read`'s); returns the release. */
  hold(key: K, timeout?: number): () => void
}

interface Entry<K, T> {
  key: K
  status: 'pending' | 'fulfilled' | 'rejected'
  promise: Promise<T>
  value?: T
  error?: unknown
  controller: AbortController
  /** Takes it out of its cache (bound once, so the failed loads can list it). */
  forget: () => void
  holders: number
  pinned: boolean
  /** Read by a render while nobody held it, since the last check: a reader that may still commit. */
  readUnheld: boolean
  /** The pending release check (cancelled when the entry is forgotten, so it keeps nothing alive). */
  timer: ReturnType<typeof setTimeout> | undefined
}

export interface AssetCacheOptions<T> {
  /** Forget loaded values nobody holds or preloaded (data only: a shared GPU resource needs its own count). */
  evictUnheld?: boolean
  /** Called with a value as it is forgotten by eviction. */
  onEvict?: (value: T) => void
}

export function createAssetCache<K extends AssetKey, T>(
  load: (key: K, signal: AbortSignal) => Promise<T>,
  options: AssetCacheOptions<T> = {},
): AssetCache<K, T> {
  /** Entries by URL; the few of one URL told apart by their other fields. */
  const entries = new Map<string, Entry<K, T>[]>()

  function find(key: K): Entry<K, T> | undefined {
    return entries.get(key.url)?.find((entry) => sameKey(entry.key, key))
  }

  function cached(entry: Entry<K, T>): boolean {
    return entries.get(entry.key.url)?.includes(entry) ?? false
  }

  function start(key: K, timeout?: number): Entry<K, T> {
    const existing = find(key)
    if (existing) return existing
    const controller = new AbortController()
    const promise = withTimeout(load(key, controller.signal), key.url, controller, timeout)
    const entry: Entry<K, T> = {
      key,
      status: 'pending',
      promise,
      controller,
      forget: () => forget(entry),
      holders: 0,
      pinned: false,
      readUnheld: false,
      timer: undefined,
    }
    const bucket = entries.get(key.url)
    if (bucket) bucket.push(entry)
    else entries.set(key.url, [entry])
    promise.then(
      (value) => {
        entry.status = 'fulfilled'
        entry.value = value
        // Its reader may have been thrown away while it loaded (React says nothing of renders it drops):
        // unless someone holds or reads it again, let it go.
        if (options.evictUnheld) scheduleRelease(entry, abandonedAfterMs)
      },
      (error: unknown) => {
        entry.status = 'rejected'
        entry.error = error
        failedLoads.add(entry.forget)
        // A stalled load: its waiting readers retry at once and meet the error; nobody inherits it later.
        if (timeouts.has(error as object)) {
          clearTimeout(entry.timer)
          entry.timer = setTimeout(() => forget(entry), RELEASE_DELAY_MS)
          return
        }
        // Its readers threw to their boundaries and never commit: forget it once they stop asking,
        // so a later mount tries again.
        if (options.evictUnheld) scheduleRelease(entry, abandonedAfterMs)
      },
    )
    // A load nobody awaits must not report an unhandled rejection; readers still see the error.
    promise.catch(() => {})
    return entry
  }

  /** The load, or a `LOAD_FAILED` rejection (and the fetch aborted) once `timeout` ms pass without it settling. */
  function withTimeout(loading: Promise<T>, url: string, controller: AbortController, timeout = getLoadTimeout()): Promise<T> {
    if (!(timeout < Infinity)) return loading
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new MD2Error('LOAD_FAILED', `no answer within ${timeout} ms (timeout); the load was abandoned`, { file: url })
        timeouts.add(error)
        reject(error)
        controller.abort()
      }, timeout)
      loading.then(
        (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        (error: unknown) => {
          clearTimeout(timer)
          reject(error)
        },
      )
    })
  }

  function forget(entry: Entry<K, T>): void {
    clearTimeout(entry.timer)
    entry.timer = undefined
    failedLoads.delete(entry.forget)
    const bucket = entries.get(entry.key.url)
    const at = bucket?.indexOf(entry) ?? -1
    if (!bucket || at < 0) return
    bucket.splice(at, 1)
    if (bucket.length === 0) entries.delete(entry.key.url)
    if (entry.status === 'pending') entry.controller.abort()
  }

  /**
   * After `delay` (StrictMode's effect replay, a key handed from one component to another, a reader
   * retrying once its load arrives), drops an entry nobody holds: aborting a load in flight, evicting a
   * loaded value when asked to. An entry read meanwhile by a render that has not committed yet is
   * looked at again later.
   */
  function scheduleRelease(entry: Entry<K, T>, delay: number): void {
    entry.readUnheld = false
    clearTimeout(entry.timer)
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      if (entry.holders > 0 || entry.pinned || !cached(entry)) return
      if (entry.readUnheld) scheduleRelease(entry, abandonedAfterMs)
      else if (entry.status === 'pending') forget(entry)
      else if (entry.status === 'rejected' && options.evictUnheld) forget(entry)
      else if (entry.status === 'fulfilled' && options.evictUnheld) {
        forget(entry)
        options.onEvict?.(entry.value as T)
      }
    }, delay)
  }

  return {
    read(key, timeout) {
      const entry = start(key, timeout)
      if (entry.holders === 0) entry.readUnheld = true
      if (entry.status === 'fulfilled') return entry.value as T
      if (entry.status === 'rejected') throw entry.error
      throw entry.promise
    },
    preload(key, timeout) {
      const entry = start(key, timeout)
      entry.pinned = true
      return entry.promise
    },
    load(key, timeout) {
      return start(key, timeout).promise
    },
    clear(key) {
      if (key === undefined) for (const bucket of [...entries.values()]) for (const entry of [...bucket]) forget(entry)
      else {
        const entry = find(key)
        if (entry) forget(entry)
      }
    },
    peek(key) {
      const entry = find(key)
      return entry?.status === 'fulfilled' ? entry.value : undefined
    },
    has(key) {
      return find(key) !== undefined
    },
    keys() {
      return [...entries.values()].flatMap((bucket) => bucket.map((entry) => entry.key))
    },
    hold(key, timeout) {
      const entry = start(key, timeout)
      entry.holders++
      entry.readUnheld = false
      let released = false
      return () => {
        if (released) return
        released = true
        entry.holders--
        if (entry.holders === 0) scheduleRelease(entry, RELEASE_DELAY_MS)
      }
    },
  }
}

/**
 * Whether two keys (or parts of keys) are the same: plain data (strings, numbers, arrays, plain
 * objects such as request headers) by value, anything else (a `LoadingManager`, a function) by
 * identity. A field left out equals one set to `undefined`.
 */
export function sameKey(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((value, i) => sameKey(value, b[i]))
  if (!isPlainObject(a) || !isPlainObject(b)) return false
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) if (!sameKey(a[name], b[name])) return false
  return true
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

/** Every cache's failed entries still kept (their readers meet the error again), each by its `forget`. */
const failedLoads = new Set<() => void>()

/**
 * Forgets every failed load of every cache, so the next read fetches again: what an error boundary's reset
 * does (`<MD2ErrorBoundary>`), as a failure is otherwise kept until nobody holds it.
 */
export function clearFailedLoads(): void {
  for (const forget of [...failedLoads]) forget()
}

/** The errors of loads that timed out, told apart from the loaders' own. */
const timeouts = new WeakSet<object>()

/** Long enough for a remount in the same interaction to pick the entry up again. */
const RELEASE_DELAY_MS = 100
/**
 * How long a loaded value nobody holds waits for a reader to come back: a component that suspended
 * on it renders again as soon as it arrives (and again whenever its Suspense boundary retries).
 */
let abandonedAfterMs = 5000

/** @internal For tests: how long an unheld loaded value waits for its reader. */
export function setAbandonedAfter(ms: number): void {
  abandonedAfterMs = ms
}

/**
 * `cache.load(key)` for an asker that wants it until it settles or `signal` aborts: the load is
 * aborted when the last such asker gives up before it arrives (and nobody else holds it).
 */
export function loadWhileWanted<K extends AssetKey, T>(cache: AssetCache<K, T>, key: K, signal: AbortSignal): Promise<T> {
  const release = cache.hold(key)
  signal.addEventListener('abort', release, { once: true })
  const promise = cache.load(key)
  promise.then(release, release)
  return promise
}

/**
 * `key` as it was last time when it is the same by value (`sameKey`): a key built afresh each render
 * stays one object for effects and `useDeferredValue` while its parts do not change.
 */
export function useSameKey<K>(key: K): K {
  const last = useRef(key)
  if (!sameKey(last.current, key)) last.current = key
  return last.current
}

/**
 * Holds `key` in `cache` while the calling component is mounted with it (nothing for `undefined`); a
 * load this starts fails after `timeout` ms.
 */
export function useAssetHold<K extends AssetKey>(cache: AssetCache<K, unknown>, key: K | undefined, timeout?: number): void {
  const held = useSameKey(key)
  // The timeout counts only for a load the hold starts: it is not part of the key.
  const startTimeout = useRef(timeout)
  startTimeout.current = timeout
  useEffect(() => (held === undefined ? undefined : cache.hold(held, startTimeout.current)), [cache, held])
}

/** `key`'s value from `cache` with Suspense, held while the calling component is mounted with it. */
export function useAsset<K extends AssetKey, T>(cache: AssetCache<K, T>, key: K, timeout?: number): T {
  useAssetHold(cache, key, timeout)
  return cache.read(key, timeout)
}

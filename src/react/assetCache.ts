import { useEffect } from 'react'
import { MD2Error } from '../core/MD2Error.js'
import { warnOnce } from '../core/warnOnce.js'

/**
 * A small Suspense cache keyed by string: one load per key however many components ask at once,
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
export interface AssetCache<T> {
  /**
   * The value, or throws the pending promise (Suspense) or the load's error (error boundary). A load
   * this starts fails after `timeout` ms (default: `getLoadTimeout()`); the first starter's timeout counts.
   */
  read(key: string, timeout?: number): T
  /** Loads and keeps `key` until `clear` (a pinned entry is never evicted or aborted). */
  preload(key: string, timeout?: number): Promise<T>
  /** Loads `key` like a read, without pinning it: it goes when nobody holds it. */
  load(key: string, timeout?: number): Promise<T>
  /** Forget one key, or everything; loads in flight are aborted. A later read loads again. Nothing is disposed. */
  clear(key?: string): void
  /** The value if it has loaded, without suspending. */
  peek(key: string): T | undefined
  has(key: string): boolean
  /** Keys held, loading or loaded. */
  keys(): string[]
  /** Marks a committed user of `key`; returns the release. */
  hold(key: string): () => void
}

interface Entry<T> {
  status: 'pending' | 'fulfilled' | 'rejected'
  promise: Promise<T>
  value?: T
  error?: unknown
  controller: AbortController
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

export function createAssetCache<T>(
  load: (key: string, signal: AbortSignal) => Promise<T>,
  options: AssetCacheOptions<T> = {},
): AssetCache<T> {
  const entries = new Map<string, Entry<T>>()

  function start(key: string, timeout?: number): Entry<T> {
    const existing = entries.get(key)
    if (existing) return existing
    const controller = new AbortController()
    const promise = withTimeout(load(key, controller.signal), key, controller, timeout)
    const entry: Entry<T> = { status: 'pending', promise, controller, holders: 0, pinned: false, readUnheld: false, timer: undefined }
    entries.set(key, entry)
    promise.then(
      (value) => {
        entry.status = 'fulfilled'
        entry.value = value
        // Its reader may have been thrown away while it loaded (React says nothing of renders it drops):
        // unless someone holds or reads it again, let it go.
        if (options.evictUnheld) scheduleRelease(key, entry, abandonedAfterMs)
      },
      (error: unknown) => {
        entry.status = 'rejected'
        entry.error = error
        // A stalled load: its waiting readers retry at once and meet the error; nobody inherits it later.
        if (timeouts.has(error as object)) {
          clearTimeout(entry.timer)
          entry.timer = setTimeout(() => forget(key, entry), RELEASE_DELAY_MS)
          return
        }
        // Its readers threw to their boundaries and never commit: forget it once they stop asking,
        // so a later mount tries again.
        if (options.evictUnheld) scheduleRelease(key, entry, abandonedAfterMs)
      },
    )
    // A load nobody awaits must not report an unhandled rejection; readers still see the error.
    promise.catch(() => {})
    return entry
  }

  /** The load, or a `LOAD_FAILED` rejection (and the fetch aborted) once `timeout` ms pass without it settling. */
  function withTimeout(loading: Promise<T>, key: string, controller: AbortController, timeout = loadTimeout): Promise<T> {
    if (!(timeout < Infinity)) return loading
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const url = key.split('\u0000')[0]
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

  function forget(key: string, entry: Entry<T>): void {
    clearTimeout(entry.timer)
    entry.timer = undefined
    if (entries.get(key) !== entry) return
    entries.delete(key)
    if (entry.status === 'pending') entry.controller.abort()
  }

  /**
   * After `delay` (StrictMode's effect replay, a key handed from one component to another, a reader
   * retrying once its load arrives), drops an entry nobody holds: aborting a load in flight, evicting a
   * loaded value when asked to. An entry read meanwhile by a render that has not committed yet is
   * looked at again later.
   */
  function scheduleRelease(key: string, entry: Entry<T>, delay: number): void {
    entry.readUnheld = false
    clearTimeout(entry.timer)
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      if (entry.holders > 0 || entry.pinned || entries.get(key) !== entry) return
      if (entry.readUnheld) scheduleRelease(key, entry, abandonedAfterMs)
      else if (entry.status === 'pending') forget(key, entry)
      else if (entry.status === 'rejected' && options.evictUnheld) forget(key, entry)
      else if (entry.status === 'fulfilled' && options.evictUnheld) {
        forget(key, entry)
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
      if (key === undefined) for (const [k, entry] of [...entries]) forget(k, entry)
      else {
        const entry = entries.get(key)
        if (entry) forget(key, entry)
      }
    },
    peek(key) {
      const entry = entries.get(key)
      return entry?.status === 'fulfilled' ? entry.value : undefined
    },
    has(key) {
      return entries.has(key)
    },
    keys() {
      return [...entries.keys()]
    },
    hold(key) {
      const entry = start(key)
      entry.holders++
      entry.readUnheld = false
      let released = false
      return () => {
        if (released) return
        released = true
        entry.holders--
        if (entry.holders === 0) scheduleRelease(key, entry, RELEASE_DELAY_MS)
      }
    },
  }
}

/** The errors of loads that timed out, told apart from the loaders' own. */
const timeouts = new WeakSet<object>()

/** Milliseconds a load may take before it fails with `LOAD_FAILED` (`Infinity`: no limit). */
let loadTimeout = 30_000

/**
 * Sets how long loads started from now on may take (models, skins, tag files, archives) before they
 * fail with `LOAD_FAILED` and leave the cache: milliseconds, `Infinity` for no limit. Default 30 s.
 */
export function setLoadTimeout(ms: number): void {
  loadTimeout = checkedTimeout(ms, 'setLoadTimeout(ms)') ?? loadTimeout
}

/** The timeout loads get when none is given. */
export function getLoadTimeout(): number {
  return loadTimeout
}

/** A timeout in ms from a prop or an argument: a positive number or `Infinity`, else a warning and `undefined`. */
export function checkedTimeout(ms: number | undefined, what: string): number | undefined {
  if (ms === undefined) return undefined
  if (typeof ms === 'number' && ms > 0) return ms
  warnOnce(
    `timeout:${what}:${String(ms)}`,
    `${what}: ${String(ms)} is not a timeout (a positive number of milliseconds or Infinity); using ${loadTimeout} ms`,
  )
  return undefined
}

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
export function loadWhileWanted<T>(cache: AssetCache<T>, key: string, signal: AbortSignal): Promise<T> {
  const release = cache.hold(key)
  signal.addEventListener('abort', release, { once: true })
  const promise = cache.load(key)
  promise.then(release, release)
  return promise
}

/** Holds `key` in `cache` while the calling component is mounted with it (nothing for `undefined`). */
export function useAssetHold(cache: AssetCache<unknown>, key: string | undefined): void {
  useEffect(() => (key === undefined ? undefined : cache.hold(key)), [cache, key])
}

/** A hook reading one URL from `cache` with Suspense while holding it, with `preload`, `clear` and `peek`. */
export function createCacheHook<T>(cache: AssetCache<T>) {
  function useCached(url: string): T {
    useAssetHold(cache, url)
    return cache.read(url)
  }
  return Object.assign(useCached, {
    /** Starts loading before any component asks, and keeps the result until `clear`. */
    preload: (url: string): Promise<T> => cache.preload(url),
    /** Forgets one URL (or all), aborting a load in flight; the next use loads again. */
    clear: (url?: string): void => cache.clear(url),
    /** The value if it has loaded, without suspending. */
    peek: (url: string): T | undefined => cache.peek(url),
  })
}

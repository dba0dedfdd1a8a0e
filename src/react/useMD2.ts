import type { LoadingManager } from 'three'
import { MD2Loader } from '../three/loaders/MD2Loader.js'
import type { MD2ModelData } from '../core/format/types.js'
import { checkedTimeout, createAssetCache, useAssetHold } from './assetCache.js'
import { useArchiveUrl } from './MD2Archive.js'

/** How `useMD2` fetches: the three.js loader's own settings, as drei's `useGLTF` takes them. */
export interface UseMD2Options {
  /** Reports the load (progress, errors) to this manager instead of three's default one. */
  manager?: LoadingManager
  /** Headers sent with the request (an API key, a token). */
  requestHeader?: Record<string, string>
  /** Sends cookies to another origin. */
  withCredentials?: boolean
  /** Configures the loader before it loads (a path, an animation table); called once per cache entry. */
  extendLoader?: (loader: MD2Loader) => void
  /**
   * Milliseconds the load may take before it fails with `LOAD_FAILED` and leaves the cache (a later
   * use loads afresh). Default: `setLoadTimeout`'s, 30 s; `Infinity` waits forever. Not part of the key.
   */
  timeout?: number
}

const plainLoader = new MD2Loader()
/** The options behind each non-default cache key (registered as the key is made). */
const optionsOfKey = new Map<string, UseMD2Options>()
const identities = new WeakMap<object, number>()
let nextIdentity = 1
function identity(value: object | undefined): number {
  if (value === undefined) return 0
  let id = identities.get(value)
  if (id === undefined) identities.set(value, (id = nextIdentity++))
  return id
}

/**
 * The cache key of a URL loaded with options: the URL alone without any, else the URL with the
 * headers and credentials by value and the manager and `extendLoader` by identity (so define those
 * once, outside the component).
 */
export function modelKey(url: string, options: UseMD2Options | undefined): string {
  if (!options || (!options.manager && !options.requestHeader && !options.withCredentials && !options.extendLoader)) return url
  const key = `${url}\u0000${JSON.stringify([options.requestHeader ?? null, options.withCredentials ?? false, identity(options.manager), identity(options.extendLoader)])}`
  if (!optionsOfKey.has(key)) optionsOfKey.set(key, options)
  return key
}

/** Parsed models by key (`modelKey`), shared by `useMD2`, `<MD2Model url>` and `<MD2Player>`. */
export const models = createAssetCache<MD2ModelData>(
  (key, signal) => {
    const options = optionsOfKey.get(key)
    if (!options) return plainLoader.loadWith(key, { signal })
    const loader = new MD2Loader(options.manager)
    if (options.requestHeader) loader.setRequestHeader(options.requestHeader)
    if (options.withCredentials) loader.setWithCredentials(true)
    options.extendLoader?.(loader)
    return loader.loadWith(key.slice(0, key.indexOf('\u0000')), { signal })
  },
  { evictUnheld: true },
)

/**
 * Loads and parses an MD2 file with Suspense, cached by URL (and options): many components asking
 * for one URL share one fetch, one parse and one model. A failed load or parse throws an `MD2Error`
 * naming the URL to the nearest error boundary. The model is shared: never mutate it. While the
 * component is mounted it holds the URL: when the last holder unmounts (or asks for another URL) a
 * load still in flight is aborted, and a loaded model nobody holds or preloaded leaves the cache.
 */
export function useMD2(url: string, options?: UseMD2Options): MD2ModelData {
  const key = modelKey(useArchiveUrl(url), options)
  useAssetHold(models, key)
  return models.read(key, checkedTimeout(options?.timeout, 'useMD2 timeout'))
}

/** Starts loading a model before any component asks for it, and keeps it until `clear`. */
useMD2.preload = (url: string, options?: UseMD2Options): Promise<MD2ModelData> =>
  models.preload(modelKey(url, options), checkedTimeout(options?.timeout, 'useMD2.preload timeout'))

/** Drops a cached model (or all of them), aborting a load in flight, so the next use loads it again. */
useMD2.clear = (url?: string, options?: UseMD2Options): void => models.clear(url === undefined ? undefined : modelKey(url, options))

/** The cached model if it has loaded, without suspending. */
useMD2.peek = (url: string, options?: UseMD2Options): MD2ModelData | undefined => models.peek(modelKey(url, options))

import type { LoadingManager } from 'three'
import { MD2Loader } from '../../three/loaders/MD2Loader.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { createAssetCache, useAsset, useAssetHold, type AssetKey } from './assetCache.js'
import { checkedTimeout } from './loadTimeout.js'
import { useArchiveUrl } from './useArchiveUrl.js'

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

/**
 * A model's cache key: the URL and the loader's settings, compared by `sameKey` (the headers by value,
 * the manager and `extendLoader` by identity: define those once, outside the component).
 */
export interface ModelKey extends AssetKey {
  readonly requestHeader: Readonly<Record<string, string>> | undefined
  readonly withCredentials: boolean
  readonly manager: LoadingManager | undefined
  readonly extendLoader: ((loader: MD2Loader) => void) | undefined
}

export function modelKey(url: string, options?: UseMD2Options): ModelKey {
  return {
    url,
    // A copy: headers changed after the load must not change the key it is cached under.
    requestHeader: options?.requestHeader && { ...options.requestHeader },
    withCredentials: options?.withCredentials === true,
    manager: options?.manager,
    extendLoader: options?.extendLoader,
  }
}

const plainLoader = new MD2Loader()

/** Parsed models, shared by `useMD2`, `<MD2Model url>`, `<MD2Instances url>` and `<MD2Player>`. */
export const models = createAssetCache<ModelKey, MD2ModelData>(
  ({ url, requestHeader, withCredentials, manager, extendLoader }, signal) => {
    if (!requestHeader && !withCredentials && !manager && !extendLoader) return plainLoader.loadWith(url, { signal })
    const loader = new MD2Loader(manager)
    if (requestHeader) loader.setRequestHeader(requestHeader)
    if (withCredentials) loader.setWithCredentials(true)
    extendLoader?.(loader)
    return loader.loadWith(url, { signal })
  },
  { evictUnheld: true },
)

/**
 * Loads and parses an MD2 file with Suspense, cached by URL (and options): many components asking
 * for one URL share one fetch, one parse and one model. A failed load or parse throws an `MD2Error`
 * naming the URL to the nearest error boundary. The model is shared: never mutate it. While the
 * component is mounted it holds the URL: when the last holder unmounts (or asks for another URL) a
 * load still in flight is aborted, and a loaded model nobody holds or preloaded leaves the cache.
 * Inside an `<MD2Archive>`, a relative URL is the archive's file.
 */
export function useMD2(url: string, options?: UseMD2Options): MD2ModelData {
  return useAsset(models, modelKey(useArchiveUrl(url), options), checkedTimeout(options?.timeout, 'useMD2 timeout'))
}

/** Starts loading a model before any component asks for it, and keeps it until `clear`. */
useMD2.preload = (url: string, options?: UseMD2Options): Promise<MD2ModelData> =>
  models.preload(modelKey(url, options), checkedTimeout(options?.timeout, 'useMD2.preload timeout'))

/** Drops a cached model (or all of them), aborting a load in flight, so the next use loads it again. */
useMD2.clear = (url?: string, options?: UseMD2Options): void => models.clear(url === undefined ? undefined : modelKey(url, options))

/** The cached model if it has loaded, without suspending. */
useMD2.peek = (url: string, options?: UseMD2Options): MD2ModelData | undefined => models.peek(modelKey(url, options))

/**
 * @internal Holds `url`'s model (starting its load) while the calling component is mounted with it,
 * without reading it: the URL a component will show next while `useMD2` still reads the one on screen.
 */
export function useMD2Hold(url: string, options?: UseMD2Options): void {
  useAssetHold(models, modelKey(useArchiveUrl(url), options), checkedTimeout(options?.timeout, 'useMD2 timeout'))
}

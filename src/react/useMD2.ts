import { MD2Loader } from '../three/MD2Loader'
import type { MD2Model } from '../core/types'
import { createAssetCache, createCacheHook } from './assetCache'

const loader = new MD2Loader()
/** Parsed models by URL, shared by `useMD2`, `<MD2Model url>` and `<MD2Player>`. */
export const models = createAssetCache<MD2Model>((url, signal) => loader.loadWith(url, { signal }), { evictUnheld: true })

/**
 * Loads and parses an MD2 file with Suspense, cached by URL: many components asking for one URL
 * share one fetch, one parse and one model. A failed load or parse throws an `MD2Error` naming the
 * URL to the nearest error boundary. The model is shared: never mutate it. While the component is
 * mounted it holds the URL: when the last holder unmounts (or asks for another URL) a load still in
 * flight is aborted, and a loaded model nobody holds or preloaded is dropped from the cache.
 * `useMD2.preload(url)`, `useMD2.clear(url?)`, `useMD2.peek(url)`.
 */
export const useMD2 = createCacheHook(models)

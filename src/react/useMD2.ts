import { MD2Loader } from '../three/MD2Loader'
import type { MD2Model } from '../core/types'
import { createAssetCache, useAssetHold } from './assetCache'

const loader = new MD2Loader()
/** Parsed models by URL, shared by `useMD2`, `<MD2Model url>` and `<MD2Player>`. */
export const models = createAssetCache<MD2Model>((url, signal) => loader.loadWith(url, { signal }), { evictUnheld: true })

/**
 * Loads and parses an MD2 file with Suspense, cached by URL: many components asking for one URL
 * share one fetch, one parse and one model. A failed load or parse throws an `MD2Error` naming the
 * URL to the nearest error boundary. The model is shared: never mutate it. While the component is
 * mounted it holds the URL: when the last holder unmounts (or asks for another URL) a load still in
 * flight is aborted, and a loaded model nobody holds or preloaded is dropped from the cache.
 */
export function useMD2(url: string): MD2Model {
  useAssetHold(models, url)
  return models.read(url)
}

/** Starts loading a model before any component asks for it, and keeps it until `clear`. */
useMD2.preload = (url: string): Promise<MD2Model> => models.preload(url)

/** Drops a cached model (or all of them), aborting a load in flight, so the next use loads it again. */
useMD2.clear = (url?: string): void => models.clear(url)

/** The cached model if it has loaded, without suspending. */
useMD2.peek = (url: string): MD2Model | undefined => models.peek(url)

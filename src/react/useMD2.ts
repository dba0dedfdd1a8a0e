import { MD2Loader } from '../three/MD2Loader'
import type { MD2Model } from '../core/types'
import { createAssetCache } from './assetCache'

const loader = new MD2Loader()
const models = createAssetCache<MD2Model>((url) => loader.loadAsync(url))

/**
 * Loads and parses an MD2 file with Suspense, cached by URL: many components asking for one URL
 * share one fetch, one parse and one model. A failed load or parse throws an `MD2Error` naming the
 * URL to the nearest error boundary. The model is shared: never mutate it.
 */
export function useMD2(url: string): MD2Model {
  return models.read(url)
}

/** Starts loading a model before any component asks for it. */
useMD2.preload = (url: string): Promise<MD2Model> => models.preload(url)

/** Drops a cached model (or all of them) so the next use loads it again. */
useMD2.clear = (url?: string): void => models.clear(url)

/** The cached model if it has loaded, without suspending. */
useMD2.peek = (url: string): MD2Model | undefined => models.peek(url)

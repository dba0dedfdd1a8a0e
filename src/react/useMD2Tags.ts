import type { MD2Tags } from '../core/tags'
import { MD2TagLoader } from '../three/MD2TagLoader'
import { createAssetCache, useAssetHold } from './assetCache'

const loader = new MD2TagLoader()
/** Tag files by URL, shared by `useMD2Tags` and `<MD2Model tags="…">`. */
export const tagFiles = createAssetCache<MD2Tags>((url, signal) => loader.loadWith(url, { signal }), { evictUnheld: true })

/**
 * Loads and parses a UFO:AI tag file (`body.tag`) with Suspense, cached by URL. A failed load or a
 * damaged file throws an `MD2Error` naming the URL to the nearest error boundary. Held while mounted, as `useMD2`.
 */
export function useMD2Tags(url: string): MD2Tags {
  useAssetHold(tagFiles, url)
  return tagFiles.read(url)
}

useMD2Tags.preload = (url: string): Promise<MD2Tags> => tagFiles.preload(url)
useMD2Tags.clear = (url?: string): void => tagFiles.clear(url)
useMD2Tags.peek = (url: string): MD2Tags | undefined => tagFiles.peek(url)

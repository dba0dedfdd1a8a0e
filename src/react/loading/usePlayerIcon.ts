import type { Texture } from 'three'
import { useAsset } from './assetCache.js'
import { fileIn, folderUrl } from './playerFiles.js'
import { skinSearches } from './skinSearch.js'
import { useArchiveUrl } from './useArchiveUrl.js'

/**
 * The HUD icon of a player skin (`<skin>_i.pcx` in the player's folder), with Suspense, cached and
 * held while mounted; the checkerboard, with one warning, when the folder has none. Never dispose it.
 */
export function usePlayerIcon(path: string, skin: string, files?: readonly string[]): Texture {
  const folder = useArchiveUrl(folderUrl(path))
  return useAsset(skinSearches, { url: `${folder}tris.md2`, name: fileIn(files, `${skin}_i.pcx`) }).texture
}

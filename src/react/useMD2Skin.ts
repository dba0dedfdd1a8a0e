import { SRGBColorSpace, TextureLoader, type Texture } from 'three'
import { MD2Error } from '../core/errors'
import { createAssetCache } from './assetCache'

async function loadSkin(url: string): Promise<Texture> {
  try {
    const texture = await new TextureLoader().loadAsync(url)
    texture.colorSpace = SRGBColorSpace
    texture.name = url
    return texture
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the image could not be loaded'
    throw new MD2Error('LOAD_FAILED', `could not load skin: ${reason}`, { file: url, section: 'skin', cause: error })
  }
}

const skins = createAssetCache<Texture>(loadSkin)

/**
 * Loads a skin image as a texture with Suspense, cached by URL (PNG and JPEG through three's own
 * loader). The texture is shared between every model that uses it: never dispose it from one.
 */
export function useMD2Skin(url: string): Texture
export function useMD2Skin(url: string | undefined): Texture | undefined
export function useMD2Skin(url: string | undefined): Texture | undefined {
  return url === undefined ? undefined : skins.read(url)
}

useMD2Skin.preload = (url: string): Promise<Texture> => skins.preload(url)

/** Forgets a cached skin (or all) and disposes its GPU texture: call only when nothing shows it. */
useMD2Skin.clear = (url?: string): void => {
  const drop = (key: string) => skins.peek(key)?.dispose()
  if (url !== undefined) drop(url)
  skins.clear(url)
}

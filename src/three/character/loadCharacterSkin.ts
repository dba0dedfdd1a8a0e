import { Source, Texture, UVMapping, type DataTexture } from 'three'
import { warnOnce } from '../../core/warnOnce.js'
import { isAbort } from '../loaders/fetchBytes.js'
import { MD2SkinLoader, getMissingSkinTexture } from '../loaders/MD2SkinLoader.js'

/**
 * A character's skin as three's classes hold it: a texture returned at once (what `skinsBody[i]` and the part
 * materials hold) and filled when the file is in. Every format goes through `MD2SkinLoader` (Quake II's PCX and
 * TGA, PNG and JPEG through `createImageBitmap`), so `signal` can abandon it. A skin that cannot be loaded, or
 * is abandoned by `signal`, shows the missing-skin checkerboard (with a warning when it failed); `settled` is
 * called once either way, unless the load was abandoned.
 */
export function loadCharacterSkin(url: string, name: string, signal: AbortSignal, settled: () => void): Texture {
  // Always a plain Texture: a PNG arrives as an ImageBitmap, which a DataTexture cannot upload.
  const texture = new Texture()
  texture.mapping = UVMapping
  texture.name = name
  new MD2SkinLoader().loadWith(url, { signal }).then(
    (loaded) => {
      fillSkin(texture, loaded, name)
      settled()
    },
    (error: unknown) => {
      fillSkin(texture, getMissingSkinTexture(), name)
      if (isAbort(error)) return
      warnOnce(
        `character-skin:${url}`,
        `MD2Character: skin ${url} could not be loaded (${String((error as Error)?.message ?? error)}); showing the missing-skin checkerboard`,
      )
      settled()
    },
  )
  return texture
}

/**
 * Makes `texture` show `source`'s pixels. Decoded PCX/TGA skins and the checkerboard are `DataTexture`s; a
 * plain texture uploads an image, so where there is `ImageData` (browsers) their pixels become one, in a
 * `Source` of its own: the checkerboard's, shared by every missing skin, is never touched.
 */
function fillSkin(texture: Texture, source: Texture, name: string): void {
  texture.copy(source)
  texture.name = name
  const image = source.image as { data?: Uint8Array<ArrayBuffer>; width: number; height: number } | null
  if ((source as DataTexture).isDataTexture && image?.data && typeof ImageData !== 'undefined') {
    const { data, width, height } = image
    texture.source = new Source(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height))
  }
  texture.needsUpdate = true
}

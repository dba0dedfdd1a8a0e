import type { Texture } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import { canvasPixels } from './skinImage.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { writeGLB } from '../../core/gltf/writeGLB.js'
import type { DecodedImage } from '../../core/images/decodedImage.js'

export interface ExportGLTFOptions {
  /** The skin to embed (a texture from `useMD2Skin`/`MD2SkinLoader`); none when omitted. */
  skin?: Texture | null
  /** One morph target per keyframe and a clip per named animation (default), or the base frame alone. */
  animations?: boolean
  /** The keyframe the mesh itself holds (default 0). */
  frame?: number
}

/**
 * The model as glTF 2.0 binary (`.glb`): the core's `writeGLB` (a morph target per keyframe, a clip
 * per animation, the skin as PNG) with the skin taken from a three.js texture. Runs in Node too for
 * the library's own skins (`MD2SkinLoader` textures hold their pixels); a skin that is a browser image
 * (an `<img>`, an `ImageBitmap`) needs a 2D canvas to be read, and without one is a coded error.
 */
export async function exportGLTF(model: MD2ModelData, options: ExportGLTFOptions = {}): Promise<Uint8Array> {
  const skin = options.skin ? topDownPixels(options.skin) : null
  return writeGLB(model, { skin, animations: options.animations, frame: options.frame })
}

/** The texture's pixels, top row first (the library keeps skins bottom row first unless the texture flips on upload). */
function topDownPixels(texture: Texture): DecodedImage {
  const image = texture.image as { width: number; height: number; data?: ArrayLike<number> } | null
  if (!image || !(image.width > 0) || !(image.height > 0)) throw new MD2Error('BAD_ARGUMENT', 'exportGLTF: the skin texture has no image')
  const { width, height } = image
  const bottomUp = !texture.flipY
  const row = width * 4
  const pixels = new Uint8Array(width * height * 4)
  if (image.data) {
    if (image.data.length !== width * height * 4)
      throw new MD2Error('BAD_ARGUMENT', `exportGLTF: the skin's pixels are not ${width} × ${height} RGBA bytes`)
    for (let y = 0; y < height; y++) {
      const from = (bottomUp ? height - 1 - y : y) * row
      for (let i = 0; i < row; i++) pixels[y * row + i] = image.data[from + i]!
    }
    return { width, height, data: pixels }
  }
  const drawn = canvasPixels(image as unknown as CanvasImageSource, width, height, bottomUp)
  if (!drawn)
    throw new MD2Error(
      'BAD_ARGUMENT',
      'exportGLTF: this skin is a browser image, and there is no 2D canvas here to read its pixels (in Node, pass a texture from MD2SkinLoader or createSkinTexture, or call writeGLB with decoded pixels)',
    )
  pixels.set(drawn)
  return { width, height, data: pixels }
}

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
  checkArguments(model, options)
  const skin = options.skin ? topDownPixels(options.skin) : null
  return writeGLB(model, { skin, animations: options.animations, frame: options.frame })
}

function shown(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value).slice(0, 40)}`
}

/** The arguments as loose JavaScript may pass them: each wrong one a `BAD_ARGUMENT` saying what it takes. */
function checkArguments(model: unknown, options: unknown): void {
  const bad = (message: string): never => {
    throw new MD2Error('BAD_ARGUMENT', `exportGLTF: ${message}`, { section: 'options' })
  }
  const header = (model as { header?: { numFrames?: unknown } } | null)?.header
  if (!model || typeof model !== 'object' || !header || typeof header.numFrames !== 'number')
    bad(`the model takes a parsed MD2 model (parseMD2, useMD2), got ${shown(model)}`)
  if (!options || typeof options !== 'object' || Array.isArray(options)) bad(`options take an object, got ${shown(options)}`)
  const { skin, animations, frame } = options as Record<string, unknown>
  if (skin !== undefined && skin !== null && !(typeof skin === 'object' && (skin as Texture).isTexture))
    bad(`skin takes a three.js texture (useMD2Skin, MD2SkinLoader) or null, got ${shown(skin)}`)
  if (animations !== undefined && typeof animations !== 'boolean') bad(`animations takes true or false, got ${shown(animations)}`)
  if (frame !== undefined && !(typeof frame === 'number' && Number.isInteger(frame)))
    bad(`frame takes a keyframe's number, got ${shown(frame)}`)
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

import {
  DataTexture,
  LinearFilter,
  LinearMipmapLinearFilter,
  NearestFilter,
  RGBAFormat,
  RepeatWrapping,
  SRGBColorSpace,
  Texture,
  UnsignedByteType,
} from 'three'
import { MD2Error, isMD2Error } from '../../core/MD2Error.js'
import { sniffImageType, type DecodedImage } from '../../core/images/decodedImage.js'
import { decodePCX } from '../../core/images/pcx.js'
import { FormatLoader } from './fetchBytes.js'

/**
 * The TGA decoder, loaded the first time a TGA skin is met: Quake II's skins are PCX, and an app whose
 * skins are PCX, PNG or JPEG never downloads it.
 */
let tgaDecoder: Promise<typeof import('../../core/images/tga.js')> | undefined
const loadTGADecoder = () => (tgaDecoder ??= import('../../core/images/tga.js'))

/** The formats the loader tells apart by extension; anything else is sniffed from its bytes. */
export type MD2SkinKind = 'pcx' | 'tga' | 'image' | 'unknown'

const SKIN_FORMAT = { loader: 'MD2SkinLoader', expected: 'a skin image', parse: "MD2SkinLoader's parse(bytes)", section: 'skin' }

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp'])

/** `pcx`, `tga`, `image` (PNG, JPEG... for the browser to decode) or `unknown`, from the URL's extension. */
export function skinKindOf(url: string): MD2SkinKind {
  const path = url.replace(/[?#].*$/s, '')
  const match = /\.([a-z0-9]+)$/i.exec(path.slice(path.lastIndexOf('/') + 1))
  const extension = match?.[1]?.toLowerCase()
  if (extension === 'pcx' || extension === 'tga') return extension
  if (extension !== undefined && IMAGE_EXTENSIONS.has(extension)) return 'image'
  return 'unknown'
}

/**
 * A three.js loader for MD2 skins. URLs ending in `.pcx` or `.tga` (any case) are fetched as bytes
 * and decoded by the core's `decodePCX` / `decodeTGA` into a `DataTexture`; PNG, JPEG and the other
 * browser formats go through three's `TextureLoader`; any other URL is fetched and its format
 * sniffed. Every texture is sRGB, mipmapped (trilinear), and oriented like an image texture with
 * `flipY = true`, so it lines up with the UVs of `createMD2Geometry` (v = 1 − t / skinHeight).
 *
 * Failures are `MD2Error`s naming the URL: `LOAD_FAILED` for the fetch, `BAD_IMAGE` for a file the
 * decoders reject.
 */
export class MD2SkinLoader extends FormatLoader<Texture> {
  /**
   * The renderer's `MAX_TEXTURE_SIZE` (`renderer.capabilities.maxTextureSize`): larger PCX/TGA skins
   * are resampled to fit, with a warning. `<MD2Model>` sets it from its renderer.
   */
  maxTextureSize = Infinity
  /** The most pixels a PCX/TGA skin may have before it is refused (see `ImageDecodeOptions.maxPixels`). */
  maxPixels: number | undefined = undefined

  protected readonly format = SKIN_FORMAT

  protected decode(bytes: Uint8Array<ArrayBuffer>, resolved: string): Promise<Texture> {
    return this.parseAsync(bytes, resolved)
  }

  /**
   * Decodes a PCX skin's bytes into a `DataTexture` (synchronously). `name` (the file name or URL) picks
   * the format by its extension and is quoted in errors; without a `.pcx` name the format is sniffed.
   * TGA (its decoder is loaded on first use) and PNG/JPEG (the browser decodes them) need `parseAsync` or `load`.
   */
  parse(data: ArrayBuffer | Uint8Array, name?: string): DataTexture {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data)
    const kind = name === undefined ? 'unknown' : skinKindOf(name)
    const format = kind === 'pcx' || kind === 'tga' ? kind : sniffImageType(bytes)
    const decode = { name, maxPixels: this.maxPixels }
    if (format === 'pcx') return createSkinTexture(decodePCX(bytes, decode), name, this.maxTextureSize)
    throw new MD2Error(
      'BAD_IMAGE',
      format === undefined
        ? 'not a PCX, TGA, PNG or JPEG image'
        : `a ${format.toUpperCase()} image needs parseAsync (${format === 'tga' ? 'its decoder is loaded on first use' : 'the browser decodes it'})`,
      { section: 'skin', file: name },
    )
  }

  /** Like `parse`, and also decodes PNG/JPEG bytes with `createImageBitmap` where there is one. */
  async parseAsync(data: ArrayBuffer | Uint8Array, name?: string): Promise<Texture> {
    const kind = name === undefined ? 'unknown' : skinKindOf(name)
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data)
    const sniffed = sniffImageType(bytes)
    // A PNG/JPEG signature wins over the name (a mislabelled file); otherwise the extension decides.
    const format = sniffed === 'png' || sniffed === 'jpeg' || kind === 'image' ? 'image' : kind === 'pcx' || kind === 'tga' ? kind : sniffed
    try {
      if (format === 'image') return await bitmapTexture(bytes, name)
      const decode = { name, maxPixels: this.maxPixels }
      if (format === 'pcx') return createSkinTexture(decodePCX(bytes, decode), name, this.maxTextureSize)
      if (format === 'tga') return createSkinTexture((await loadTGADecoder()).decodeTGA(bytes, decode), name, this.maxTextureSize)
      throw new MD2Error('BAD_IMAGE', 'not a PCX, TGA, PNG or JPEG image', { section: 'skin', file: name })
    } catch (error) {
      throw isMD2Error(error) && name !== undefined ? error.withFile(name) : error
    }
  }
}

/**
 * A `DataTexture` for a decoded skin (RGBA, first row at the top, as the core decoders return):
 * sRGB, trilinear mipmaps, rows stored bottom-up so that it samples like an image texture with
 * `flipY = true` and lines up with the MD2 UVs (no `UNPACK_FLIP_Y` on a typed-array upload, which
 * some browsers deprecate). `image` is not modified.
 */
export function createSkinTexture(image: DecodedImage, name?: string, maxTextureSize = Infinity): DataTexture {
  const fitted = fitTextureSize(image, maxTextureSize, name)
  const { width, height } = fitted
  const texture = new DataTexture(bottomUp(fitted), width, height, RGBAFormat, UnsignedByteType)
  texture.colorSpace = SRGBColorSpace
  texture.flipY = false
  texture.generateMipmaps = true
  texture.minFilter = LinearMipmapLinearFilter
  texture.magFilter = LinearFilter
  if (name !== undefined) texture.name = name
  texture.needsUpdate = true
  return texture
}

/**
 * An image no larger than `maxSize` on either side: as the GPU would refuse a larger one, it is
 * resampled (point sampling, as Quake II's GL_ResampleTexture does) with a warning naming both sizes.
 */
function fitTextureSize(image: DecodedImage, maxSize: number, name: string | undefined): DecodedImage {
  const { width, height, data } = image
  if (width <= maxSize && height <= maxSize) return image
  const scale = maxSize / Math.max(width, height)
  const outWidth = Math.max(1, Math.floor(width * scale))
  const outHeight = Math.max(1, Math.floor(height * scale))
  console.warn(
    `react-three-md2: skin ${name ?? ''} is ${width} × ${height}, past this GPU's MAX_TEXTURE_SIZE of ${maxSize}; resampled to ${outWidth} × ${outHeight}`,
  )
  const out = new Uint8Array(outWidth * outHeight * 4)
  const words = new Uint32Array(data.buffer, data.byteOffset, width * height)
  const outWords = new Uint32Array(out.buffer)
  for (let y = 0; y < outHeight; y++) {
    const row = Math.floor(((y + 0.5) * height) / outHeight) * width
    for (let x = 0; x < outWidth; x++) outWords[y * outWidth + x] = words[row + Math.floor(((x + 0.5) * width) / outWidth)]!
  }
  return { width: outWidth, height: outHeight, data: out }
}

/** The image's rows in reverse order (last row first), in a new array. */
function bottomUp({ width, height, data }: DecodedImage): Uint8Array<ArrayBuffer> {
  const rowBytes = width * 4
  const out = new Uint8Array(rowBytes * height)
  for (let y = 0; y < height; y++) out.set(data.subarray(y * rowBytes, (y + 1) * rowBytes), (height - 1 - y) * rowBytes)
  return out
}

let checkerboard: DataTexture | undefined

/**
 * The texture shown for a skin that cannot be found: an 8 × 8 magenta and black checkerboard,
 * created once and shared. Never dispose it.
 */
export function getMissingSkinTexture(): DataTexture {
  if (checkerboard) return checkerboard
  const size = 64
  const cell = 8
  const data = new Uint8Array(size * size * 4)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const on = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0
      data.set(on ? [255, 0, 255, 255] : [0, 0, 0, 255], (y * size + x) * 4)
    }
  }
  const texture = new DataTexture(data, size, size, RGBAFormat, UnsignedByteType)
  texture.colorSpace = SRGBColorSpace
  texture.wrapS = texture.wrapT = RepeatWrapping
  texture.magFilter = NearestFilter
  texture.minFilter = NearestFilter
  texture.name = 'react-three-md2:missing-skin'
  texture.needsUpdate = true
  checkerboard = texture
  return texture
}

async function bitmapTexture(bytes: Uint8Array, name: string | undefined): Promise<Texture> {
  if (typeof createImageBitmap === 'undefined') {
    throw new MD2Error('BAD_IMAGE', 'PNG/JPEG skins need createImageBitmap or an HTML document to decode them', {
      section: 'skin',
      file: name,
    })
  }
  let bitmap: ImageBitmap
  try {
    // As three's ImageBitmapLoader: flip while decoding (flipY is ignored for bitmaps), no colour conversion.
    bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      imageOrientation: 'flipY',
      premultiplyAlpha: 'none',
      colorSpaceConversion: 'none',
    })
  } catch (error) {
    throw new MD2Error('BAD_IMAGE', 'the browser could not decode the image', { section: 'skin', file: name, cause: error })
  }
  const texture = new Texture(bitmap)
  texture.flipY = false
  texture.colorSpace = SRGBColorSpace
  if (name !== undefined) texture.name = name
  texture.needsUpdate = true
  return texture
}

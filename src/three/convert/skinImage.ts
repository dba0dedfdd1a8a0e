import type { Texture } from 'three'
import { MD2Error } from '../../core/MD2Error.js'
import type { DecodedImage } from '../../core/images/decodedImage.js'

type Drawable = CanvasImageSource & { width: number; height: number }

/**
 * A texture's pixels as RGBA, first row at the top: what `encodePCX`, `encodeTGA` or `encodePNG` write as
 * the skin of a model `bakeMD2` measured on it (its st address the image as stored, whatever `flipY` says).
 * Reads a `DataTexture`'s 8-bit RGBA directly; an image, bitmap or canvas is drawn on a 2D canvas, so it
 * needs a browser (or a worker with `OffscreenCanvas`). Throws `MD2Error` `BAD_ARGUMENT` for a texture
 * without pixels to read.
 */
export function skinImageOf(texture: Texture): DecodedImage {
  const image = texture.image as (Partial<Drawable> & { data?: ArrayLike<number> }) | null | undefined
  const width = image?.width ?? 0
  const height = image?.height ?? 0
  if (!image || !(width > 0 && height > 0))
    throw new MD2Error('BAD_ARGUMENT', `texture "${texture.name}" has no image to read (not loaded, or not decoded here)`, {
      section: 'skin',
    })
  if (image.data) {
    if (!(image.data instanceof Uint8Array || image.data instanceof Uint8ClampedArray) || image.data.length !== width * height * 4)
      throw new MD2Error('BAD_ARGUMENT', `texture "${texture.name}" holds data other than ${width} × ${height} 8-bit RGBA`, {
        section: 'skin',
      })
    return { width, height, data: new Uint8Array(image.data) }
  }
  const pixels = canvasPixels(image as Drawable, width, height, false)
  if (!pixels) throw new MD2Error('BAD_ARGUMENT', `texture "${texture.name}": reading its image needs a 2D canvas`, { section: 'skin' })
  return { width, height, data: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.length) }
}

/**
 * An image's RGBA pixels, drawn on a 2D canvas (`OffscreenCanvas`, else a DOM canvas), upside down when
 * `flip`; undefined where there is no 2D canvas (Node).
 */
export function canvasPixels(image: CanvasImageSource, width: number, height: number, flip: boolean): Uint8ClampedArray | undefined {
  const canvas =
    typeof OffscreenCanvas !== 'undefined'
      ? new OffscreenCanvas(width, height)
      : typeof document !== 'undefined'
        ? Object.assign(document.createElement('canvas'), { width, height })
        : undefined
  const context = canvas?.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null | undefined
  if (!context) return undefined
  if (flip) {
    context.translate(0, height)
    context.scale(1, -1)
  }
  context.drawImage(image, 0, 0)
  return context.getImageData(0, 0, width, height).data
}

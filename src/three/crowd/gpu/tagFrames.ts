import { DataTexture, FloatType, Matrix4, NearestFilter, RGBAFormat } from 'three'
import { FLOATS_PER_TRANSFORM, type MD2Tags } from '../../../core/tags/parseMD2Tags.js'
import { setTagMatrix } from '../../mesh/tagMatrix.js'

/** The most frames a tag texture holds, one a row: WebGL2's least `MAX_TEXTURE_SIZE` (MD2 files have far fewer). */
export const MAX_TAG_FRAMES = 2048

/**
 * Tag `index` in each of `frames` frames of the model it is read for, as the decodes read it (`CrowdTagDecode`): one
 * row a frame of 3 RGBA32F texels, the Y-up matrix's x, y and z columns (`setTagMatrix`) with its translation's x,
 * y and z in their w. Frames past the tag file's last take its last, as `tagTransform` does. `reach`: the farthest
 * the tag's origin is from the model's, in any frame (what a follower's culling sphere grows by).
 */
export function createTagFrames(tags: MD2Tags, index: number, frames: number): { texture: DataTexture; reach: number } {
  const data = new Float32Array(frames * 12)
  const matrix = new Matrix4()
  let reach = 0
  for (let f = 0; f < frames; f++) {
    const at = (index * tags.numFrames + Math.min(f, tags.numFrames - 1)) * FLOATS_PER_TRANSFORM
    const e = setTagMatrix(matrix, tags.transforms.subarray(at, at + FLOATS_PER_TRANSFORM)).elements
    for (let c = 0; c < 3; c++) {
      data[f * 12 + c * 4] = e[c * 4]!
      data[f * 12 + c * 4 + 1] = e[c * 4 + 1]!
      data[f * 12 + c * 4 + 2] = e[c * 4 + 2]!
      data[f * 12 + c * 4 + 3] = e[12 + c]!
    }
    reach = Math.max(reach, Math.sqrt(e[12]! * e[12]! + e[13]! * e[13]! + e[14]! * e[14]!))
  }
  const texture = new DataTexture(data, 3, frames, RGBAFormat, FloatType)
  texture.magFilter = texture.minFilter = NearestFilter
  texture.generateMipmaps = false
  texture.needsUpdate = true
  return { texture, reach }
}

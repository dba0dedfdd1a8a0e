import { AnimationClip, BufferGeometry, Float32BufferAttribute } from 'three'
import { ANORMS_256 } from '../../core/format/normals.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { MD2Error } from '../../core/MD2Error.js'

/**
 * Which way round a model is built: `'library'` turns Quake II's Z-up into Y-up with a rotation (the model
 * as drawn in Quake II, facing +Z); `'three'` swaps y and z as three.js's `MD2Loader` does, which mirrors it
 * (the weapon changes hands) and leaves it facing +X.
 */
export type MD2Handedness = 'library' | 'three'

export interface CreateMD2MorphGeometryOptions {
  /** Default `'library'`, the model as Quake II draws it; `'three'` gives three's `MD2Loader` coordinates exactly. */
  handedness?: MD2Handedness
  /** The clips' keyframes per second. Default 10, as three's `MD2Loader`. */
  fps?: number
}

/**
 * What three.js's `MD2Loader` returns, built from a parsed model: a non-indexed `BufferGeometry` (one vertex per
 * triangle corner) with every frame as a position and a normal morph target named after the frame, and
 * `geometry.animations`, `AnimationClip`s named as three names them (`AnimationClip.CreateClipsFromMorphTargetSequences`
 * on the frame names), so code written for `MD2Loader` + `AnimationMixer` keeps working.
 *
 * It costs what three pays: every frame decoded to floats for the GPU, 24 bytes of position and normal per triangle
 * corner per frame (over 30 times the file's frames), against the library's path (`createMD2Geometry` + `writeMD2Pose`), which keeps the
 * file's 4 bytes per vertex per frame and writes the one pose shown. Dispose it when done.
 */
export function createMD2MorphGeometry(
  model: MD2ModelData,
  options: CreateMD2MorphGeometryOptions = {},
): BufferGeometry & { animations: AnimationClip[] } {
  const handedness = options.handedness ?? 'library'
  if (handedness !== 'library' && handedness !== 'three') {
    throw new MD2Error('BAD_ARGUMENT', `createMD2MorphGeometry: handedness ${JSON.stringify(handedness)} is not 'library' or 'three'`)
  }
  const fps = options.fps ?? 10
  if (!(fps > 0 && Number.isFinite(fps))) {
    throw new MD2Error('BAD_ARGUMENT', `createMD2MorphGeometry: fps ${String(fps)} is not a positive number of keyframes per second`)
  }
  const { triangles, st, frameData, frameStride, frameTransforms } = model
  const { numTris, numFrames, skinWidth, skinHeight } = model.header
  const corners = numTris * 3
  // Three's swap mirrors the model, which turns Quake's clockwise faces counter-clockwise; the library's rotation
  // keeps them clockwise, so its corners go 0, 2, 1.
  const mirrored = handedness === 'three'
  const cornerOf = (tri: number, k: number) => tri * 6 + (mirrored || k === 0 ? k : 3 - k)

  const uvs = new Float32Array(corners * 2)
  for (let tri = 0; tri < numTris; tri++) {
    for (let k = 0; k < 3; k++) {
      const s = triangles[cornerOf(tri, k) + 3]!
      const c = tri * 3 + k
      uvs[c * 2] = st[s * 2]! / skinWidth
      uvs[c * 2 + 1] = 1 - st[s * 2 + 1]! / skinHeight
    }
  }

  const morphPositions: Float32BufferAttribute[] = []
  const morphNormals: Float32BufferAttribute[] = []
  for (let f = 0; f < numFrames; f++) {
    const positions = new Float32Array(corners * 3)
    const normals = new Float32Array(corners * 3)
    const m = f * 6
    const base = f * frameStride + 40
    for (let tri = 0; tri < numTris; tri++) {
      for (let k = 0; k < 3; k++) {
        const v = base + triangles[cornerOf(tri, k)]! * 4
        const qx = frameData[v]! * frameTransforms[m]! + frameTransforms[m + 3]!
        const qy = frameData[v + 1]! * frameTransforms[m + 1]! + frameTransforms[m + 4]!
        const qz = frameData[v + 2]! * frameTransforms[m + 2]! + frameTransforms[m + 5]!
        const n = frameData[v + 3]! * 3
        const o = (tri * 3 + k) * 3
        // Library: Y-up (X, Y, Z) = Quake (y, z, x). Three: Quake (x, z, y).
        positions[o] = mirrored ? qx : qy
        positions[o + 1] = qz
        positions[o + 2] = mirrored ? qy : qx
        normals[o] = ANORMS_256[n + (mirrored ? 0 : 1)]!
        normals[o + 1] = ANORMS_256[n + 2]!
        normals[o + 2] = ANORMS_256[n + (mirrored ? 1 : 0)]!
      }
    }
    const position = new Float32BufferAttribute(positions, 3)
    const normal = new Float32BufferAttribute(normals, 3)
    position.name = normal.name = model.frameNames[f]!
    morphPositions.push(position)
    morphNormals.push(normal)
  }

  const geometry = new BufferGeometry()
  geometry.name = model.name ?? 'md2'
  // Frame 0 is the rest shape, as in three's loader (copies: the morph targets stay as they are).
  geometry.setAttribute('position', morphPositions[0]!.clone())
  geometry.setAttribute('normal', morphNormals[0]!.clone())
  geometry.setAttribute('uv', new Float32BufferAttribute(uvs, 2))
  geometry.morphAttributes.position = morphPositions
  geometry.morphAttributes.normal = morphNormals
  geometry.morphTargetsRelative = false
  const clips = AnimationClip.CreateClipsFromMorphTargetSequences(model.frameNames.map((name) => ({ name })) as never, fps, false)
  return Object.assign(geometry, { animations: clips })
}

import {
  DynamicDrawUsage,
  InstancedInterleavedBuffer,
  InterleavedBufferAttribute,
  type BufferAttribute,
  type BufferGeometry,
  type InstancedMesh,
} from 'three'
import type { CrowdClock } from '../../core/animation/CrowdClock.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { shadowVector } from '../../core/lighting/quake2Light.js'
import { SHADEDOT_QUANT } from '../../core/lighting/shadeDots.js'
import type { CrowdInstances } from './CrowdInstances.js'
import type { CrowdLooks } from './CrowdLooks.js'
import type { CrowdRenderer } from './CrowdRenderer.js'
import type { MD2GpuFrames } from './gpuFrames.js'

/**
 * The per-frame rows, a row per drawn instance in one interleaved buffer (one vertex buffer: WebGPU
 * allows a pipeline 8): where its keyframes are, the crossfade's, the blends, the light, and the two
 * keyframes' scales and blended translate. Each one's offset in floats is the one before plus its size:
 */
export const FRAMES = 0
export const FADE_FRAMES = FRAMES + 4
export const BLEND = FADE_FRAMES + 4
/** Quake II light (rgb); on a shell layer the shell's colour, on a shadow layer the shadow's parameters. */
export const LIGHT = BLEND + 4
export const SCALE_A = LIGHT + 4
export const SCALE_B = SCALE_A + 3
export const SHIFT = SCALE_B + 3
/** Floats per row. */
export const INSTANCE_STRIDE = SHIFT + 3

/** The per-frame rows of `rows` drawn instances, and `geometry` (a light copy of the shared one) reading them. */
export function attachInstanceData(geometry: BufferGeometry, rows: number): InstancedInterleavedBuffer {
  const data = new InstancedInterleavedBuffer(new Float32Array(rows * INSTANCE_STRIDE), INSTANCE_STRIDE).setUsage(DynamicDrawUsage)
  const slot = (name: string, size: number, offset: number) =>
    geometry.setAttribute(name, new InterleavedBufferAttribute(data, size, offset))
  slot('md2Frames', 4, FRAMES)
  slot('md2FadeFrames', 4, FADE_FRAMES)
  slot('md2Blend', 4, BLEND)
  slot('md2Light', 4, LIGHT)
  slot('md2ScaleA', 3, SCALE_A)
  slot('md2ScaleB', 3, SCALE_B)
  slot('md2Shift', 3, SHIFT)
  return data
}

/**
 * Flags the first `rows` rows of `attribute` (items of its `itemSize`, or of the buffer's stride) for
 * upload, reusing `range` (`addUpdateRange` makes a new one).
 */
export function uploadFirst(
  attribute: BufferAttribute | InstancedInterleavedBuffer,
  range: { start: number; count: number },
  rows: number,
): void {
  if (rows === 0) return
  range.count = rows * ('stride' in attribute ? attribute.stride : attribute.itemSize)
  const ranges = attribute.updateRanges
  // Setting the length to 0 would drop the array's storage (a new one on push): replace in place.
  if (ranges.length === 0) ranges.push(range)
  else {
    ranges[0] = range
    if (ranges.length > 1) ranges.length = 1
  }
  attribute.needsUpdate = true
}

/** The parts of a crowd its rows are written from and into. */
interface RowSources {
  /** The crowd: its instance matrices and `count`. */
  mesh: InstancedMesh
  /** Its per-frame rows (`attachInstanceData`). */
  data: InstancedInterleavedBuffer
  instances: CrowdInstances
  clock: CrowdClock
  looks: CrowdLooks
  renderer: CrowdRenderer
  model: MD2ModelData
  frames: MD2GpuFrames
  /** Quake II lighting: each row carries its instance's light. */
  quake2: boolean
}

/**
 * Writes a crowd's per-frame data for the instances it draws, once a frame, and flags it for upload: per
 * drawn instance its matrix, its pose as the shader reads it (keyframes as places in the frames texture,
 * the blends, the CPU kernel's coefficients), its light, and a copy of both rows in the shell and shadow
 * layers for the instances that wear them. Loops over typed arrays: nothing is allocated.
 */
export class InstanceRowWriter {
  /** One update range object per attribute, reused every frame (`addUpdateRange` makes a new one). */
  private readonly ranges = [0, 1].map(() => ({ start: 0, count: 0 }))
  /** The shadow's parameters (`shadowVector`'s), reused for every row. */
  private readonly shadowParameters = new Float64Array(4)

  constructor(private readonly crowd: RowSources) {}

  /** Writes the rows of the instances listed drawn (none where the renderer draws nothing); `count` becomes theirs. */
  write(): void {
    const { mesh, instances, looks, renderer, quake2 } = this.crowd
    const frameRows = this.crowd.frames.rows
    const drawn = renderer.drawsNothing ? 0 : instances.drawn
    const t = instances.transforms
    const matrices = mesh.instanceMatrix.array as Float32Array
    const data = this.crowd.data.array as Float32Array
    const m = this.crowd.model.frameTransforms
    const poses = this.crowd.clock.poses
    const w = mesh.matrixWorld.elements
    const shellData = looks.shell.data?.array as Float32Array | undefined
    const shellMatrices = looks.shell.instanceMatrix.array as Float32Array
    const shadowData = looks.shadow.data?.array as Float32Array | undefined
    const shadowMatrices = looks.shadow.instanceMatrix.array as Float32Array
    let shelledRows = 0
    let shadowRows = 0
    for (let k = 0; k < drawn; k++) {
      const i = instances.ids[k]!
      const o = i * 16
      for (let e = 0; e < 16; e++) matrices[k * 16 + e] = t[o + e]!
      const s = this.crowd.clock.pose(i)
      const a = k * INSTANCE_STRIDE
      // Each keyframe as (block, row) of the frames texture: the shader then needs no division.
      placeFrame(data, a + FRAMES, poses[s]!, frameRows)
      placeFrame(data, a + FRAMES + 2, poses[s + 1]!, frameRows)
      const toward = poses[s + 2]!
      data[a + BLEND] = toward
      data[a + BLEND + 2] = poses[s + 3]!
      // The CPU kernel's coefficients: each keyframe's scale times its share, and the blended translate.
      const fa = poses[s]! * 6
      const fb = poses[s + 1]! * 6
      for (let axis = 0; axis < 3; axis++) {
        data[a + SCALE_A + axis] = m[fa + axis]! * (1 - toward)
        data[a + SCALE_B + axis] = m[fb + axis]! * toward
        data[a + SHIFT + axis] = m[fa + 3 + axis]! * (1 - toward) + m[fb + 3 + axis]! * toward
      }
      if (poses[s + 3]! > 0) {
        placeFrame(data, a + FADE_FRAMES, poses[s + 4]!, frameRows)
        placeFrame(data, a + FADE_FRAMES + 2, poses[s + 5]!, frameRows)
        data[a + BLEND + 1] = poses[s + 6]!
      }
      const shadowed = looks.castsShadow(i)
      // The instance's world yaw in degrees (its +Z axis seen from above), for the light table's row and the shadow.
      let yaw = 0
      if (quake2 || shadowed) {
        const zx = w[0]! * t[o + 8]! + w[4]! * t[o + 9]! + w[8]! * t[o + 10]!
        const zz = w[2]! * t[o + 8]! + w[6]! * t[o + 9]! + w[10]! * t[o + 10]!
        yaw = (Math.atan2(zx, zz) * 180) / Math.PI
      }
      if (quake2) {
        const light = looks.lightOf(i)
        for (let c = 0; c < 3; c++) data[a + LIGHT + c] = light[c]!
        // The light table's row (shadeDotsRow's), written out: V8 boxes a fractional number passed to a call it
        // leaves out of line, as it does once this loop is inlined into the crowd's update.
        data[a + BLEND + 3] = Math.trunc((yaw * SHADEDOT_QUANT) / 360) & (SHADEDOT_QUANT - 1)
      }
      if (shellData && looks.wearsShell(i))
        looks.writeShellColor(i, shellData, copyRow(matrices, data, k, shellMatrices, shellData, shelledRows++) + LIGHT)
      if (shadowed) {
        const at = copyRow(matrices, data, k, shadowMatrices, shadowData!, shadowRows++) + LIGHT
        // The shade vector for the instance's world yaw, as GL_DrawAliasShadow's, and its height above the floor.
        const parameters = this.shadowParameters
        parameters[3] = yaw
        shadowVector(parameters)
        shadowData![at] = parameters[0]!
        shadowData![at + 1] = parameters[1]!
        looks.writeShadowHeight(i, shadowData!, at + 2)
      }
    }
    mesh.count = drawn
    uploadFirst(mesh.instanceMatrix, this.ranges[0]!, drawn)
    uploadFirst(this.crowd.data, this.ranges[1]!, drawn)
    renderer.computed?.rowsWritten(drawn)
    looks.shell.commit(shelledRows)
    looks.shadow.commit(shadowRows)
  }
}

/**
 * Copies drawn row `k` (its matrix and per-frame data) into row `row` of a layer's; returns where that
 * row starts in the layer's data. Loops, not `set` with a `subarray`: a view is an object, and this runs
 * per instance per frame.
 */
function copyRow(
  matrices: Float32Array,
  data: Float32Array,
  k: number,
  toMatrices: Float32Array,
  toData: Float32Array,
  row: number,
): number {
  for (let e = 0; e < 16; e++) toMatrices[row * 16 + e] = matrices[k * 16 + e]!
  const from = k * INSTANCE_STRIDE
  const to = row * INSTANCE_STRIDE
  for (let e = 0; e < INSTANCE_STRIDE; e++) toData[to + e] = data[from + e]!
  return to
}

/** Writes keyframe `frame`'s place in the frames texture (block, row) at `out[at]`, `out[at + 1]`. */
function placeFrame(out: Float32Array, at: number, frame: number, rows: number): void {
  const block = frame < rows ? 0 : Math.floor(frame / rows)
  out[at] = block
  out[at + 1] = frame - block * rows
}

import {
  DynamicDrawUsage,
  InstancedInterleavedBuffer,
  InterleavedBufferAttribute,
  type BufferAttribute,
  type BufferGeometry,
  type InstancedMesh,
} from 'three'
import { ROW_HIDDEN, ROW_POSED, type CrowdClock } from '../../core/animation/CrowdClock.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { shadowVector } from '../../core/lighting/quake2Light.js'
import { SHADEDOT_QUANT } from '../../core/lighting/shadeDots.js'
import type { CrowdInstances } from './CrowdInstances.js'
import type { CrowdLooks } from './CrowdLooks.js'
import type { CrowdRenderer } from './CrowdRenderer.js'
import type { MD2GpuFrames } from './gpuFrames.js'

/**
 * The instance rows the shaders read, one interleaved buffer (one vertex buffer: WebGPU allows a pipeline
 * 8), 16 floats a row. A row holds an instance's animation as stored (`CrowdClock`'s row: the shader works
 * out its pose from the crowd's time), or a pose worked out already (`ROW_POSED`):
 * - `CLOCK`: where the playhead was (keyframes from the range's first), when (seconds from the crowd's epoch),
 *   its rate in keyframes per second (0: still), the range's length; posed: from, to, t, 1.
 * - `RANGE`: the range's first keyframe, the flags, the crossfade's start (from the epoch) and length (0: none);
 *   posed: 0, the flags, 0, the crossfade's weight.
 * - `FADE`: the crossfade's outgoing pose (from, to, t), and 0.
 * - `LIGHT`: Quake II light (rgb) and its light table row (the instance's yaw); a shell layer's colour; a
 *   shadow layer's shade vector (x, y) and height above the floor.
 */
export const CLOCK = 0
export const RANGE = 4
export const FADE = 8
export const LIGHT = 12
/** Floats per row. */
export const INSTANCE_STRIDE = 16
/** Seconds from the stored rows' epoch before it moves on (single floats keep 1/100,000 s at 256 s). */
const EPOCH_SECONDS = 256
/** Row flags (`RANGE + 1`), as the clock writes them. */
export { ROW_HIDDEN, ROW_LOOP, ROW_NO_INTERPOLATION, ROW_POSED, ROW_REVERSE } from '../../core/animation/CrowdClock.js'

/** The per-frame rows of `rows` drawn instances, and `geometry` (a light copy of the shared one) reading them. */
export function attachInstanceData(geometry: BufferGeometry, rows: number): InstancedInterleavedBuffer {
  const data = new InstancedInterleavedBuffer(new Float32Array(rows * INSTANCE_STRIDE), INSTANCE_STRIDE).setUsage(DynamicDrawUsage)
  const slot = (name: string, size: number, offset: number) =>
    geometry.setAttribute(name, new InterleavedBufferAttribute(data, size, offset))
  slot('md2Clock', 4, CLOCK)
  slot('md2Range', 4, RANGE)
  slot('md2Fade', 4, FADE)
  slot('md2Light', 4, LIGHT)
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

  /** Whether the rows are stored ones, instance by instance (`writeStored`), rather than the drawn instances' poses (`write`). */
  private stored = false
  /** Where the stored rows' times count from (the crowd's time when it was last moved on). */
  private epoch = 0
  /** One update range per row written this frame (`addUpdateRange` makes a new one): two per row, matrix and data. */
  private readonly rowRanges: { start: number; count: number }[] = []
  /** Rows written by the last `writeStored` (what it cost: no row of an instance not told anything). */
  storedWritten = 0

  constructor(private readonly crowd: RowSources) {}

  /**
   * The crowd drawn from stored rows: every instance in use is drawn (its slot its index), the shader works
   * out each one's pose from its row and the crowd's time, and culls it against `planes` (none: no culling).
   * Only the rows of instances told something since the last call are written and uploaded; the first call
   * (or one after `write`) writes every instance's. No loop over the instances otherwise.
   */
  writeStored(planes: Float32Array | undefined | 'same'): void {
    const { mesh, instances, clock, renderer } = this.crowd
    const state = renderer.state
    const size = instances.size
    if (!this.stored) {
      this.stored = true
      clock.changeAll(size)
    }
    // The shader's times are single floats: past a few minutes from the epoch, every looping playhead is placed anew now.
    if (clock.now - this.epoch > EPOCH_SECONDS) {
      clock.rebase(size)
      this.epoch = clock.now
    }
    state.uniforms.md2Time.value = clock.now - this.epoch
    if (planes !== 'same') state.cullBy(planes)
    const changed = clock.changed
    const count = clock.changedCount
    const t = instances.transforms
    const matrices = mesh.instanceMatrix.array as Float32Array
    const data = this.crowd.data.array as Float32Array
    const rows = Math.min(matrices.length >> 4, data.length / INSTANCE_STRIDE)
    const matrixRanges = mesh.instanceMatrix.updateRanges
    const dataRanges = this.crowd.data.updateRanges
    // Many rows, or ranges of an earlier frame not uploaded yet (not drawn since): one upload of them all; a few: one range each.
    const whole = count > size >> 3 || matrixRanges.length > 0 || dataRanges.length > 0
    const ranges = this.rowRanges
    let written = 0
    for (let k = 0; k < count; k++) {
      const i = changed[k]!
      if (i >= rows) continue
      for (let e = 0; e < 16; e++) matrices[i * 16 + e] = t[i * 16 + e]!
      const a = i * INSTANCE_STRIDE
      clock.writeRow(i, data, a, this.epoch)
      if (instances.hidden[i]) data[a + RANGE + 1] = data[a + RANGE + 1]! | ROW_HIDDEN
      written++
      if (whole) continue
      while (ranges.length < 2 * written) ranges.push({ start: 0, count: 0 })
      const matrixRange = ranges[2 * written - 2]!
      matrixRange.start = i * 16
      matrixRange.count = 16
      matrixRanges.push(matrixRange)
      const dataRange = ranges[2 * written - 1]!
      dataRange.start = a
      dataRange.count = INSTANCE_STRIDE
      dataRanges.push(dataRange)
    }
    clock.clearChanged()
    this.storedWritten = written
    const drawn = renderer.drawsNothing ? 0 : Math.min(size, rows)
    mesh.count = drawn
    if (whole) {
      uploadFirst(mesh.instanceMatrix, this.ranges[0]!, drawn)
      uploadFirst(this.crowd.data, this.ranges[1]!, drawn)
    } else if (written > 0) {
      mesh.instanceMatrix.needsUpdate = true
      this.crowd.data.needsUpdate = true
    }
  }

  /** The stored rows are to be written again in full (into new buffers). */
  restore(): void {
    this.stored = false
  }

  /** Writes the rows of the instances listed drawn (none where the renderer draws nothing); `count` becomes theirs. */
  write(): void {
    const { mesh, instances, looks, renderer, quake2 } = this.crowd
    // Poses worked out here, the instances culled already: the shader culls nothing.
    this.stored = false
    renderer.state.cullBy(undefined)
    const drawn = renderer.drawsNothing ? 0 : instances.drawn
    const t = instances.transforms
    const matrices = mesh.instanceMatrix.array as Float32Array
    const data = this.crowd.data.array as Float32Array
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
      writePosedRow(data, a, poses, s)
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
        data[a + LIGHT + 3] = Math.trunc((yaw * SHADEDOT_QUANT) / 360) & (SHADEDOT_QUANT - 1)
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

/** Writes the pose at `poses[s]` (`CROWD_POSE_STRIDE` floats) as a posed row at `data[a]`. */
function writePosedRow(data: Float32Array, a: number, poses: Float64Array, s: number): void {
  data[a + CLOCK] = poses[s]!
  data[a + CLOCK + 1] = poses[s + 1]!
  data[a + CLOCK + 2] = poses[s + 2]!
  data[a + CLOCK + 3] = 1
  data[a + RANGE] = 0
  data[a + RANGE + 1] = ROW_POSED
  data[a + RANGE + 2] = 0
  data[a + RANGE + 3] = poses[s + 3]!
  data[a + FADE] = poses[s + 4]!
  data[a + FADE + 1] = poses[s + 5]!
  data[a + FADE + 2] = poses[s + 6]!
  data[a + FADE + 3] = 0
}

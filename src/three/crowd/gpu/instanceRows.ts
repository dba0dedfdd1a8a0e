import {
  DynamicDrawUsage,
  InstancedInterleavedBuffer,
  InterleavedBufferAttribute,
  type BufferAttribute,
  type BufferGeometry,
  type InstancedMesh,
} from 'three'
import { ROW_HIDDEN, type CrowdClock } from '../../../core/animation/CrowdClock.js'
import type { CrowdInstances } from './CrowdInstances.js'
import type { CrowdRenderer } from './CrowdRenderer.js'
import { CLOCK, FADE, INSTANCE_STRIDE, LIGHT, RANGE } from './rowLayout.js'

// The row layout (rowLayout.ts) is a module of its own: the queries' chunk reads it without bringing this one.
export { CLOCK, FADE, INSTANCE_STRIDE, LIGHT, RANGE }

/** Seconds from the stored rows' epoch before it moves on (single floats keep 1/100,000 s at 256 s). */
const EPOCH_SECONDS = 256
/** Row flags (`RANGE + 1`), as the clock writes them. */
export { ROW_HIDDEN, ROW_LOOP, ROW_NO_INTERPOLATION, ROW_POSED, ROW_REVERSE } from '../../../core/animation/CrowdClock.js'

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
  renderer: CrowdRenderer
  /** A crowd lit as Quake II lit it: what writes an instance's light into its row (`LIGHT`), with the rest of it. */
  light?: { writeLight(i: number, out: Float32Array, at: number): void }
  /** The crowd's shells and shadows (`CrowdLooks`): each instance's stored row copied into the layers it wears. */
  looks?: {
    readonly layered: boolean
    beginStored(fresh: boolean): boolean
    storeRow(i: number, matrices: Float32Array, data: Float32Array): void
    commitStored(): void
  }
}

/**
 * Writes a crowd's stored rows, each instance's in its own slot, when it is told something, and flags them for
 * upload. (The rows of a crowd drawn from its instances' poses, written every frame, are `posed/posedRows.ts`'s,
 * into the same buffers.) Loops over typed arrays: nothing is allocated.
 */
export class InstanceRowWriter {
  /** One update range object per attribute (matrices, rows) for uploads of the first rows, reused every frame. */
  readonly ranges = [0, 1].map(() => ({ start: 0, count: 0 }))

  /** Whether the rows are stored ones, instance by instance (`writeStored`), rather than the drawn instances' poses. */
  private stored = false
  /** One update range per row written this frame (`addUpdateRange` makes a new one): two per row, matrix and data. */
  private readonly rowRanges: { start: number; count: number }[] = []
  /** Rows written by the last `writeStored` (what it cost: no row of an instance not told anything). */
  storedWritten = 0
  /** Instances whose rows the last `writeStored` wrote: the clock's `changed[0 … storedChanged − 1]` (a synced follower copies them). */
  storedChanged = 0

  constructor(private readonly crowd: RowSources) {}

  /**
   * The crowd drawn from stored rows: every instance in use is drawn (its slot its index), the shader works
   * out each one's pose from its row and the crowd's time, and culls it against `planes` (none: no culling).
   * Only the rows of instances told something since the last call are written and uploaded; the first call
   * (or one after `restore`, as the posed rows call it) writes every instance's. No loop over the instances otherwise.
   */
  writeStored(planes: Float32Array | undefined | 'same'): void {
    const { mesh, instances, clock, renderer } = this.crowd
    const state = renderer.state
    const size = instances.size
    const looks = this.crowd.looks?.layered ? this.crowd.looks : undefined
    const fresh = !this.stored
    if (!this.stored) {
      this.stored = true
      clock.changeAll(size)
    }
    // Shadows lie where the crowd is: moved, every shadow's row is written again.
    if (looks?.beginStored(fresh) && !fresh) clock.changeAll(size)
    // The shader's times are single floats: past a few minutes from the epoch, every looping playhead is placed anew now.
    if (clock.now - clock.epoch > EPOCH_SECONDS) clock.rebase(size)
    state.uniforms.md2Time.value = clock.now - clock.epoch
    if (planes !== 'same') state.cullBy(planes)
    state.readFromAtlas(undefined)
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
      clock.writeRow(i, data, a)
      this.crowd.light?.writeLight(i, data, a + LIGHT)
      if (instances.hidden[i]) data[a + RANGE + 1] = data[a + RANGE + 1]! | ROW_HIDDEN
      looks?.storeRow(i, matrices, data)
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
    looks?.commitStored()
    this.storedWritten = written
    this.storedChanged = count
    const drawn = renderer.drawsNothing ? 0 : Math.min(size, rows)
    mesh.count = drawn
    if (whole) this.uploadFirstRows(drawn)
    else if (written > 0) {
      mesh.instanceMatrix.needsUpdate = true
      this.crowd.data.needsUpdate = true
    }
  }

  /** Flags the first `drawn` matrices and rows for upload (posed rows, written for the instances drawn). */
  uploadFirstRows(drawn: number): void {
    uploadFirst(this.crowd.mesh.instanceMatrix, this.ranges[0]!, drawn)
    uploadFirst(this.crowd.data, this.ranges[1]!, drawn)
  }

  /** The stored rows are to be written again in full (into new buffers, or over posed rows). */
  restore(): void {
    this.stored = false
  }

  /** Whether the crowd was last drawn from its stored rows (`writeStored`), not from posed ones. */
  get isStored(): boolean {
    return this.stored
  }
}

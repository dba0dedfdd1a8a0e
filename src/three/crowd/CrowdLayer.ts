import { InstancedMesh, type BufferGeometry, type InstancedBufferAttribute, type InstancedInterleavedBuffer, type Material } from 'three'
import { attachInstanceData, uploadFirst } from './gpu/instanceRows.js'
import { INSTANCE_STRIDE } from './gpu/rowLayout.js'

/** Slots written in one frame past which the layer's rows go up whole rather than one range each. */
const MOST_RANGES = 64

/**
 * A second draw over some of a crowd's instances: the power-up shells, or the blob shadows, of the
 * instances that have them. Its rows are copies of the crowd's rows for those instances (the crowd
 * writes them in its own pass), with the light slot holding this layer's own values. Made with the
 * crowd, so that its place in three's draw order is fixed (the shadows, then the shells, as
 * `<MD2Model>` draws them), but hidden and holding nothing until first used (`open`). Rays pass through it.
 *
 * A crowd drawn from posed rows writes its layers' rows every frame (`commit`); one drawn from stored rows gives
 * each instance wearing the layer a slot of its own (`storeRow`), written only when the instance is told
 * something, so that a dressed crowd costs what a plain one costs; the layer draws its slots, no more.
 */
export class CrowdLayer extends InstancedMesh<BufferGeometry, Material> {
  data: InstancedInterleavedBuffer | undefined
  private readonly ranges = [0, 1].map(() => ({ start: 0, count: 0 }))
  /** Stored rows: each instance's slot here (−1: none), and the instance in each of the first `stored` slots. */
  private slotOf = new Int32Array(0)
  private inSlot = new Int32Array(0)
  private stored = 0
  /** The update ranges of the slots written this frame (reused), or the first `stored` rows whole. */
  private readonly slotRanges: { start: number; count: number }[] = []
  private marked = 0
  private whole = true
  /** Posed rows were written over the slots since the stored rows were. */
  private posedOver = false

  constructor(sharedGeometry: BufferGeometry, material: Material, name: string) {
    super(sharedGeometry.clone(), material, 0)
    this.frustumCulled = false
    this.visible = false
    this.name = name
  }

  /** Makes room for as many drawn instances as `matrices` holds (made for the renderer drawing the crowd), and shows the layer. */
  open(matrices: InstancedBufferAttribute): InstancedInterleavedBuffer {
    this.data ??= attachInstanceData(this.geometry, matrices.count)
    this.resetStored(matrices.count)
    // Uploaded as the renderer's matrices are (see `CrowdRenderer.fit`).
    this.data.setUsage(matrices.usage)
    this.instanceMatrix = matrices
    this.visible = true
    return this.data
  }

  override raycast(): void {}

  /** Rows `0 … count − 1` are written: uploads them and draws them. */
  commit(count: number): void {
    this.count = count
    // Posed rows written over the slots: stored rows, when they come back, start afresh.
    this.posedOver = true
    if (!this.data) return
    uploadFirst(this.instanceMatrix, this.ranges[0]!, count)
    uploadFirst(this.data, this.ranges[1]!, count)
  }

  /** No instance has a slot: the stored rows start afresh (every one is then written again, as the crowd's). */
  resetStored(capacity: number): void {
    if (this.slotOf.length !== capacity) {
      this.slotOf = new Int32Array(capacity)
      this.inSlot = new Int32Array(capacity)
    }
    this.slotOf.fill(-1)
    this.stored = 0
    this.whole = true
  }

  /** Before a frame's stored rows: ranges of an earlier frame not uploaded yet (not drawn since) make it an upload of them all. */
  beginStored(): void {
    if (this.posedOver) {
      this.posedOver = false
      this.resetStored(this.slotOf.length)
    }
    this.marked = 0
    if (this.instanceMatrix.updateRanges.length > 0 || (this.data?.updateRanges.length ?? 0) > 0) this.whole = true
  }

  /**
   * Instance `i`'s stored row: when it `wears` this layer, its matrix and row copied from the crowd's (row `i` of
   * `matrices` and `data`) into its slot (given one if it had none); when not, its slot given up, the last slot's
   * row moved into it. Returns where its row starts in this layer's data, or −1 when it has no slot.
   */
  storeRow(i: number, wears: boolean, matrices: Float32Array, data: Float32Array): number {
    if (!wears) {
      this.releaseSlot(i)
      return -1
    }
    const own = this.data!.array as Float32Array
    const ownMatrices = this.instanceMatrix.array as Float32Array
    let slot = this.slotOf[i]!
    if (slot < 0) {
      slot = this.stored++
      this.slotOf[i] = slot
      this.inSlot[slot] = i
    }
    for (let e = 0; e < 16; e++) ownMatrices[slot * 16 + e] = matrices[i * 16 + e]!
    for (let e = 0; e < INSTANCE_STRIDE; e++) own[slot * INSTANCE_STRIDE + e] = data[i * INSTANCE_STRIDE + e]!
    this.mark(slot)
    return slot * INSTANCE_STRIDE
  }

  /** Instance `i` gives its slot up, if it has one: the last slot's row is moved into it. */
  releaseSlot(i: number): void {
    const slot = this.slotOf[i]!
    if (slot < 0) return
    const own = this.data!.array as Float32Array
    const ownMatrices = this.instanceMatrix.array as Float32Array
    const last = --this.stored
    if (slot !== last) {
      for (let e = 0; e < 16; e++) ownMatrices[slot * 16 + e] = ownMatrices[last * 16 + e]!
      for (let e = 0; e < INSTANCE_STRIDE; e++) own[slot * INSTANCE_STRIDE + e] = own[last * INSTANCE_STRIDE + e]!
      const moved = this.inSlot[last]!
      this.inSlot[slot] = moved
      this.slotOf[moved] = slot
      this.mark(slot)
    }
    this.slotOf[i] = -1
  }

  /** Slot `slot` written this frame: its two update ranges (matrix, row), from the reused pool. */
  private mark(slot: number): void {
    if (this.whole) return
    if (this.marked >= MOST_RANGES) {
      this.whole = true
      return
    }
    const pool = this.slotRanges
    while (pool.length < 2 * (this.marked + 1)) pool.push({ start: 0, count: 0 })
    const matrix = pool[2 * this.marked]!
    matrix.start = slot * 16
    matrix.count = 16
    this.instanceMatrix.updateRanges.push(matrix)
    const row = pool[2 * this.marked + 1]!
    row.start = slot * INSTANCE_STRIDE
    row.count = INSTANCE_STRIDE
    this.data!.updateRanges.push(row)
    this.marked++
  }

  /** The frame's stored rows are written: draws the slots, uploading what was written. */
  commitStored(): void {
    this.count = this.stored
    if (!this.data) return
    if (this.whole) {
      this.whole = false
      // uploadFirst replaces the ranges in place (emptying the arrays would drop their storage: one a frame).
      uploadFirst(this.instanceMatrix, this.ranges[0]!, this.stored)
      uploadFirst(this.data, this.ranges[1]!, this.stored)
    } else if (this.marked > 0) {
      this.instanceMatrix.needsUpdate = true
      this.data.needsUpdate = true
    }
  }

  override dispose(): void {
    this.geometry.dispose()
    this.material.dispose()
    super.dispose()
  }
}

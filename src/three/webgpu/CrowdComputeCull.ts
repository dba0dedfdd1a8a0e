import { Fn, If, atomicAdd, instanceIndex, storage, uniform, vec4 } from 'three/tsl'
import {
  IndirectStorageBufferAttribute,
  StorageBufferAttribute,
  type ComputeNode,
  type InstancedMesh,
  type InterleavedBuffer,
  type InterleavedBufferAttribute,
  type Node,
} from 'three/webgpu'
import { warnOnce } from '../../core/warnOnce.js'
import type { CrowdShaderState } from '../crowd/gpu/CrowdShaderState.js'
import { CLOCK, FADE, INSTANCE_STRIDE, LIGHT, RANGE } from '../crowd/gpu/instanceRows.js'
import type { CrowdCullPass } from '../crowd/gpu/webgpuSupport.js'
import type { GpuDecodeInputs } from '../materials/gpuDecodeGLSL.js'
import {
  culled,
  instanceFromRow,
  type InstanceInputs,
  type InstanceRow,
  type ListedInstance,
  type NodeBuilderLike,
  type StateNodes,
} from './gpuDecodeTSL.js'

/** The geometry attribute standing for the list while the crowd is drawn through it (see `list`). */
const LISTED = 'md2Listed'

/**
 * vec4s per listed instance of its pose's inputs (`InstanceInputs` as the vertex stage reads them): keyframes
 * a and b as places, the outgoing pose's two, and the three coefficients of the frame table, each with one
 * of the blends in its w (towards b, the outgoing pose's, the crossfade's weight).
 */
const POSE_VECTORS = 5

/** What the pass needs of the renderer drawing the crowd. */
interface CullRenderer {
  compute(node: ComputeNode): unknown
  getArrayBufferAsync(attribute: StorageBufferAttribute): Promise<ArrayBuffer>
  /** None on `WebGLRenderer`. */
  backend?: { isWebGPUBackend?: boolean; device?: { limits: { maxStorageBufferBindingSize: number } } }
}

/** The storage the pass made, and its kernel (made again when the crowd's matrices are). */
interface Built {
  /** A copy of the crowd's rows (the same array) as storage: the vertex buffer's uploads are moved onto it. */
  rows: StorageBufferAttribute
  /** The instances in view, in no set order: the draw's instance `k` shows instance `list[k]`. */
  list: StorageBufferAttribute
  /** The listed instances' poses at the crowd's time: `POSE_VECTORS` vec4s at `k` for `list[k]`. */
  poses: StorageBufferAttribute
  /** `drawIndexedIndirect`'s five words: the index count, the instances (counted by the pass), 0, 0, 0. */
  indirect: IndirectStorageBufferAttribute
  kernel?: { matrices: unknown; node: ComputeNode }
}

/**
 * A crowd drawn from stored rows culled by a compute pass on real WebGPU: once per change of what it reads
 * (the crowd's time, the view, the rows, the matrices, the instances in use), one invocation per instance in
 * use tests the instance's sphere and hidden flag (`culled`, the vertex stage's own test) and appends the
 * ones in view to a list, counting them into an indirect draw's instance count (an atomic add, reset from
 * the CPU before each run). For each instance it lists at `k` it also works out the pose at the crowd's
 * time (`instanceFromRow`, the vertex stage's own: playhead, loop or once, reverse, the crossfade's ease,
 * the frame table's coefficients) into `poses[k]`: per instance, where the vertex stage did it per vertex.
 * The crowd's draws, its shadow-map draws among them, are then indirect: instance `k` reads `poses[k]` and
 * `list[k]`'s matrix, and the vertex stage only reads its keyframes' texels (`decodeVertex`), culling
 * nothing. Elsewhere (WebGL, WebGPURenderer's WebGL2 backend, a crowd drawn from posed rows) the vertex
 * stage works out the pose and culls, as before.
 */
export class CrowdComputeCull implements CrowdCullPass {
  private built: Built | undefined
  /** The crowd drawn through the list, if it is (its geometry holds the list and the indirect buffer). */
  private mesh: InstancedMesh | undefined
  /** What the last run read: the rows' and matrices' versions, the instances, the crowd's time, the view (cull flag and planes). */
  private readonly seen = { rows: -1, matrices: -1, count: -1, time: Number.NaN, view: new Float64Array(25) }
  /** Left off (the vertex stage culls): for measuring one against the other. */
  off = false

  private readonly data: Float32Array
  private readonly capacity: number
  private readonly indexCount: number
  private readonly state: CrowdShaderState
  private readonly cull = uniform(0)
  /** The crowd's time, set before each run (the poses are of it). */
  private readonly time = uniform(0)
  /** The model's frames as the decode reads them: from the crowd's materials (`decodes`), before any run. */
  private inputs: GpuDecodeInputs | undefined

  constructor(options: { rows: Float32Array; capacity: number; indexCount: number; state: CrowdShaderState }) {
    this.data = options.rows
    this.capacity = options.capacity
    this.indexCount = options.indexCount
    this.state = options.state
  }

  /** The model's frames the crowd's materials decode (the same textures for each of them): the pass poses by them. */
  decodes(inputs: GpuDecodeInputs): void {
    this.inputs ??= inputs
  }

  /** Makes the storage for `renderer`, if it is real WebGPU. */
  prepare(drawing: unknown): void {
    const backend = (drawing as CullRenderer).backend
    if (this.built || !this.inputs || !backend?.isWebGPUBackend) return
    // The poses are the largest buffer (80 bytes an instance): past the device's binding size, the vertex stage culls and poses.
    const bytes = this.capacity * POSE_VECTORS * 16
    const most = backend.device?.limits.maxStorageBufferBindingSize ?? bytes
    if (bytes > most) {
      warnOnce(
        `crowd-cull:${this.capacity}`,
        `MD2Crowd (limit ${this.capacity}): the cull pass needs a ${Math.ceil(bytes / 2 ** 20)} MB storage buffer, past this device's ${Math.floor(most / 2 ** 20)} MB; the vertex stage culls instead`,
      )
      return
    }
    const indirect = new IndirectStorageBufferAttribute(new Uint32Array([this.indexCount, 0, 0, 0, 0]), 1)
    this.built = {
      rows: new StorageBufferAttribute(this.data, 4),
      list: new StorageBufferAttribute(new Uint32Array(this.capacity), 1),
      poses: new StorageBufferAttribute(this.capacity * POSE_VECTORS, 4),
      indirect,
    }
  }

  /** Whether the crowd was last drawn through the list. */
  get listing(): boolean {
    return this.mesh !== undefined
  }

  /**
   * Before a draw of `mesh`: drawn through the list when `stored` (from stored rows) on real WebGPU, and
   * the pass run if what it reads changed since it last ran (once a frame at most: not again for the
   * shadow-map draws).
   */
  run(drawing: unknown, mesh: InstancedMesh, stored: boolean): void {
    const renderer = drawing as CullRenderer
    const built = this.built
    const listing = built !== undefined && stored && !this.off && renderer.backend?.isWebGPUBackend === true
    if (listing !== this.listing) this.switchTo(mesh, listing)
    if (!built || !listing) return
    const seen = this.seen
    let stale = false
    // The rows written for the vertex buffer (not drawn on this path) are uploaded to their storage copy.
    const data = (mesh.geometry.getAttribute('md2Clock') as InterleavedBufferAttribute).data as InterleavedBuffer
    if (data.version !== seen.rows) {
      seen.rows = data.version
      const ranges = built.rows.updateRanges
      // Ranges not uploaded yet (no run since): all of it.
      if (ranges.length > 0) built.rows.clearUpdateRanges()
      else {
        built.rows.updateRanges = data.updateRanges
        data.updateRanges = ranges
      }
      built.rows.needsUpdate = true
      stale = true
    }
    if (mesh.instanceMatrix.version !== seen.matrices || mesh.count !== seen.count) stale = true
    const u = this.state.uniforms
    // The poses are of the crowd's time: a run each frame it moves.
    if (u.md2Time.value !== seen.time) stale = true
    seen.time = u.md2Time.value
    const view = seen.view
    if (view[24] !== u.md2Cull.value) stale = true
    view[24] = u.md2Cull.value
    for (let p = 0; p < 6; p++) {
      const plane = u.md2Planes.value[p]!
      for (let c = 0; c < 4; c++) {
        const value = plane.getComponent(c)
        if (view[p * 4 + c] !== value) stale = true
        view[p * 4 + c] = value
      }
    }
    if (!stale) return
    seen.matrices = mesh.instanceMatrix.version
    seen.count = mesh.count
    built.indirect.array[1] = 0
    built.indirect.needsUpdate = true
    if (mesh.count === 0) return
    const kernel = this.kernelFor(mesh, built)
    kernel.count = mesh.count
    this.cull.value = u.md2Cull.value
    this.time.value = u.md2Time.value
    renderer.compute(kernel)
    // Ranges still there were not uploaded by range: the run created the storage, from the whole array. Left, the
    // next rows written would be taken for ranges of a frame not uploaded yet, and the rows uploaded whole.
    if (built.rows.updateRanges.length > 0) built.rows.clearUpdateRanges()
  }

  /**
   * The drawn instance's pose as the pass worked it out, and the listed instance's matrix, for the crowd's
   * materials built while it is drawn through the list (`undefined` otherwise: the vertex stage works out
   * its own instance's pose and culls).
   */
  read(builder: NodeBuilderLike): ListedInstance | undefined {
    const built = this.built
    if (!built || builder.object !== this.mesh || !builder.renderer.backend.isWebGPUBackend) return undefined
    // These buffers are this crowd's own: what is built here is not shared with another crowd's draws.
    builder.objectSpecific = true
    const id = storage(built.list, 'uint', this.capacity).toReadOnly().element(instanceIndex).toVar()
    const matrices = this.mesh.instanceMatrix
    const poses = storage(built.poses, 'vec4', this.capacity * POSE_VECTORS).toReadOnly()
    const at = (offset: number) => poses.element(instanceIndex.mul(POSE_VECTORS).add(offset)).toVar() as unknown as Node<'vec4'>
    const [scaleA, scaleB, shift] = [at(2), at(3), at(4)]
    const row = rowOf(built.rows, this.capacity, id)
    const instance: InstanceInputs = {
      frames: at(0),
      fadeFrames: at(1),
      blend: vec4(scaleA.w, scaleB.w, shift.w, 0),
      light: row.light,
      scaleA: scaleA.xyz,
      scaleB: scaleB.xyz,
      shift: shift.xyz,
    }
    return {
      instance,
      placement: storage(matrices as never, 'mat4', Math.max(matrices.count, 1)).element(id) as unknown as Node<'mat4'>,
    }
  }

  /** How many instances the last run listed, read back from the GPU (for tests). */
  async listed(renderer: unknown): Promise<number> {
    if (!this.built) return 0
    const words = new Uint32Array(await (renderer as CullRenderer).getArrayBufferAsync(this.built.indirect))
    return words[1]!
  }

  /** Frees the pass and its storage on the GPU (the rows' array is the crowd's and stays). */
  dispose(): void {
    const built = this.built
    if (!built) return
    if (this.mesh) this.switchTo(this.mesh, false)
    built.kernel?.node.dispose()
    for (const buffer of [built.rows, built.list, built.poses, built.indirect]) buffer.dispose()
    this.built = undefined
  }

  /**
   * Draws `mesh` through the list or not: its geometry takes or drops the indirect buffer and the list (an
   * attribute no shader reads as one: it changes the geometry's key, so that three builds the crowd's
   * draws, shadow-map draws included, again), and its materials are built again.
   */
  private switchTo(mesh: InstancedMesh, listing: boolean): void {
    const geometry = mesh.geometry
    this.mesh = listing ? mesh : undefined
    if (listing && this.built) {
      geometry.setAttribute(LISTED, this.built.list)
      geometry.setIndirect(this.built.indirect)
      // All the rows to storage, and a run.
      this.built.rows.clearUpdateRanges()
      this.built.rows.needsUpdate = true
      this.seen.count = -1
    } else {
      geometry.deleteAttribute(LISTED)
      geometry.setIndirect(null)
    }
    const { material, customDepthMaterial, customDistanceMaterial } = mesh
    for (const m of [material, customDepthMaterial, customDistanceMaterial]) if (m && !Array.isArray(m)) m.needsUpdate = true
  }

  /** The kernel reading `mesh`'s matrices (made again when they are, for another renderer). */
  private kernelFor(mesh: InstancedMesh, built: Built): ComputeNode {
    const matrices = mesh.instanceMatrix
    if (built.kernel?.matrices === matrices) return built.kernel.node
    built.kernel?.node.dispose()
    const u = this.state.uniforms
    // The view as the crowd's uniforms hold it (the same vectors), and the cull flag set before each run.
    const state = {
      time: this.time,
      cull: this.cull,
      sphere: uniform(u.md2Sphere.value),
      planes: u.md2Planes.value.map((plane) => uniform(plane)),
    } as unknown as StateNodes
    const placements = storage(matrices as never, 'mat4', Math.max(matrices.count, 1)).toReadOnly()
    const list = storage(built.list, 'uint', this.capacity)
    const poses = storage(built.poses, 'vec4', this.capacity * POSE_VECTORS)
    const counter = storage(built.indirect, 'uint', 5).toAtomic()
    const capacity = this.capacity
    const inputs = this.inputs!
    const node = Fn(() => {
      const i = instanceIndex
      const placement = placements.element(i) as unknown as Node<'mat4'>
      const row = rowOf(built.rows, capacity, i)
      If(culled(row, state, placement).not(), () => {
        const k = atomicAdd(counter.element(1), 1).toVar()
        list.element(k).assign(i)
        // The pose as the vertex stage would work it out, once for all the instance's vertices.
        const pose = instanceFromRow(inputs, row, state)
        const at = k.mul(POSE_VECTORS).toVar()
        poses.element(at).assign(pose.frames)
        poses.element(at.add(1)).assign(pose.fadeFrames)
        poses.element(at.add(2)).assign(vec4(pose.scaleA, pose.blend.x))
        poses.element(at.add(3)).assign(vec4(pose.scaleB, pose.blend.y))
        poses.element(at.add(4)).assign(vec4(pose.shift, pose.blend.z))
      })
    })().compute(this.capacity, [64])
    built.kernel = { matrices, node }
    return node
  }
}

/** Row `id` of the rows' storage copy, as the decode reads a row. */
function rowOf(rows: StorageBufferAttribute, capacity: number, id: Node<'uint'>): InstanceRow {
  const vectors = storage(rows, 'vec4', (capacity * INSTANCE_STRIDE) / 4).toReadOnly()
  const at = (offset: number) => vectors.element(id.mul(INSTANCE_STRIDE / 4).add(offset / 4)) as unknown as Node<'vec4'>
  return { clock: at(CLOCK), range: at(RANGE), fade: at(FADE), light: at(LIGHT) }
}

import { Fn, instanceIndex, int, storage, vec4 } from 'three/tsl'
import { StorageBufferAttribute, type ComputeNode, type Node } from 'three/webgpu'
import { warnOnce } from '../../core/warnOnce.js'
import type { GpuDecodeInputs } from '../materials/gpuDecodeGLSL.js'
import {
  crowdStateNodes,
  decodeVertex,
  instanceFromRow,
  type ComputedPoses,
  type DecodedVertex,
  type InstanceInputs,
  type NodeBuilderLike,
} from './gpuDecodeTSL.js'
import { CLOCK, FADE, INSTANCE_STRIDE, LIGHT, RANGE, uploadFirst } from '../crowd/gpu/instanceRows.js'
import type { CrowdComputePass } from '../crowd/gpu/webgpuSupport.js'

/** Bytes of storage per drawn instance per MD2 vertex: a blended position and a blended normal, a vec4 each. */
const COMPUTE_BYTES_PER_VERTEX = 32

/** What the pass needs of the renderer drawing the crowd. */
interface ComputeRenderer {
  compute(node: ComputeNode): unknown
  backend: { isWebGPUBackend?: boolean; device?: { limits: { maxStorageBufferBindingSize: number } } }
}

/**
 * A crowd's poses blended by a compute pass on real WebGPU: once a frame, one invocation per drawn
 * instance per MD2 vertex runs the same decode as the vertex shader (`decodeVertex`) on the crowd's
 * per-frame rows and stores the position (with keyframe b's normal index) and normal; the crowd's draw,
 * and its shadow-map passes, then read two vec4s a vertex instead of decoding two keyframes (four in a
 * crossfade) in every pass. Storage is made the first time a WebGPU renderer draws the crowd, sized by
 * its limit, and only if the device can bind it; otherwise the vertex shader decodes, as elsewhere.
 */
export class CrowdComputeDecode implements ComputedPoses, CrowdComputePass {
  private built:
    | {
        rows: StorageBufferAttribute
        positions: StorageBufferAttribute
        normals: StorageBufferAttribute
        kernel: ComputeNode
      }
    | undefined
  private refused = false
  /** The rows changed since the pass last ran. */
  private stale = true
  private readonly range = { start: 0, count: 0 }

  private readonly inputs: GpuDecodeInputs
  /** The crowd's per-frame rows (`INSTANCE_STRIDE` floats each), the same array its vertex attributes read. */
  private readonly data: Float32Array
  /** Drawn instances at most. */
  private readonly capacity: number
  private readonly name: string

  constructor(options: { inputs: GpuDecodeInputs; rows: Float32Array; capacity: number; name: string }) {
    this.inputs = options.inputs
    this.data = options.rows
    this.capacity = options.capacity
    this.name = options.name
  }

  /** Makes the storage for `renderer`, if it is real WebGPU and can bind it (`active` then). */
  prepare(drawing: unknown): void {
    const renderer = drawing as ComputeRenderer
    if (this.built || this.refused || !renderer.backend.isWebGPUBackend) return
    const vertices = this.inputs.vertices
    const entries = this.capacity * vertices
    const bytes = entries * (COMPUTE_BYTES_PER_VERTEX / 2)
    const most = renderer.backend.device?.limits.maxStorageBufferBindingSize ?? 0
    if (bytes > most) {
      this.refused = true
      warnOnce(
        `crowd-compute:${this.name}:${this.capacity}`,
        `MD2Crowd (${this.name}, limit ${this.capacity}): decode "compute" needs ${Math.ceil(bytes / 2 ** 20)} MB storage buffers, past this device's ${Math.floor(most / 2 ** 20)} MB; the vertex shader decodes instead`,
      )
      return
    }
    const rows = new StorageBufferAttribute(this.data, 1)
    const positions = new StorageBufferAttribute(entries, 4)
    const normals = new StorageBufferAttribute(entries, 4)
    const written = {
      positions: storage(positions, 'vec4', entries),
      normals: storage(normals, 'vec4', entries),
    }
    const inputs = this.inputs
    const kernel = Fn(() => {
      const id = int(instanceIndex)
      const decoded = decodeVertex(inputs, rowInputs(inputs, rows, id.div(vertices)), id.mod(vertices))
      written.positions.element(id).assign(vec4(decoded.position, decoded.towardsNormal))
      written.normals.element(id).assign(vec4(decoded.normal, 0))
    })().compute(entries, [64])
    this.built = { rows, positions, normals, kernel }
    this.stale = true
  }

  read(builder: NodeBuilderLike, vertex: Node<'int'>): { vertex: DecodedVertex; instance: InstanceInputs } | undefined {
    const built = this.built
    if (!built || !builder.renderer.backend.isWebGPUBackend) return undefined
    const entries = built.positions.count
    const at = int(instanceIndex).mul(this.inputs.vertices).add(vertex)
    const position = storage(built.positions, 'vec4', entries).toReadOnly().element(at)
    const normal = storage(built.normals, 'vec4', entries).toReadOnly().element(at)
    return {
      vertex: { position: position.xyz, normal: normal.xyz, towardsNormal: position.w },
      instance: rowInputs(this.inputs, built.rows, int(instanceIndex)),
    }
  }

  /** The first `drawn` rows were written: upload them before the next pass. */
  rowsWritten(drawn: number): void {
    this.stale = true
    // The storage holds the rows as single floats: its first `drawn` rows are that many times the stride of them.
    if (this.built) uploadFirst(this.built.rows, this.range, drawn * INSTANCE_STRIDE)
  }

  /** Runs the pass over the first `drawn` rows, once per change of the rows (not again for each shadow-map pass). */
  run(renderer: unknown, drawn: number): void {
    const built = this.built
    if (!built || !this.stale || drawn === 0) return
    this.stale = false
    built.kernel.count = drawn * this.inputs.vertices
    ;(renderer as ComputeRenderer).compute(built.kernel)
  }

  /** Whether the pass is in use (its storage made). */
  get active(): boolean {
    return this.built !== undefined
  }

  /** Frees the pass and its storage on the GPU (the rows' array is the crowd's and stays). */
  dispose(): void {
    const built = this.built
    if (!built) return
    built.kernel.dispose()
    for (const buffer of [built.rows, built.positions, built.normals]) buffer.dispose()
    this.built = undefined
  }
}

/** A row's instance, read from storage, posed by its row (`instanceFromRow`). */
function rowInputs(inputs: GpuDecodeInputs, rows: StorageBufferAttribute, row: Node<'int'>): InstanceInputs {
  const buffer = storage(rows, 'float', rows.count).toReadOnly()
  const base = row.mul(INSTANCE_STRIDE)
  const at = (offset: number) => buffer.element(base.add(offset))
  const four = (offset: number) => vec4(at(offset), at(offset + 1), at(offset + 2), at(offset + 3))
  return instanceFromRow(inputs, { clock: four(CLOCK), range: four(RANGE), fade: four(FADE), light: four(LIGHT) }, crowdStateNodes())
}

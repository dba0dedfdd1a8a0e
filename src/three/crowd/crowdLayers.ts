import {
  DynamicDrawUsage,
  InstancedBufferAttribute,
  InstancedInterleavedBuffer,
  InstancedMesh,
  InterleavedBufferAttribute,
  type BufferAttribute,
  type BufferGeometry,
  type Material,
} from 'three'
import { StorageInstancedBufferAttribute } from 'three/webgpu'

/**
 * Floats per drawn instance in the per-frame data, one interleaved buffer (one vertex buffer: WebGPU
 * allows a pipeline 8): where its keyframes are, the crossfade's, the blends, the light, and the two
 * keyframes' scales and blended translate. The offsets of each, in floats:
 */
export const INSTANCE_STRIDE = 25
export const FRAMES = 0
export const FADE_FRAMES = 4
export const BLEND = 8
/** Quake II light (rgb); on a shell layer the shell's colour, on a shadow layer the shadow's parameters. */
export const LIGHT = 12
export const SCALE_A = 16
export const SCALE_B = 19
export const SHIFT = 22

/** The per-frame data of `rows` drawn instances, and `geometry` (a light copy of the shared one) reading it. */
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

/** Which renderer draws a crowd: its instance matrices are kept the way that renderer reads them best. */
export type CrowdRenderer = 'webgl' | 'webgpu' | 'webgpu-webgl2'

/** Instance matrices for `rows` drawn instances, as `renderer` reads them (a storage buffer on WebGPU). */
export function createInstanceMatrices(renderer: CrowdRenderer, rows: number): InstancedBufferAttribute {
  const array = new Float32Array(rows * 16)
  const matrices = renderer === 'webgpu' ? new StorageInstancedBufferAttribute(array, 16) : new InstancedBufferAttribute(array, 16)
  return matrices.setUsage(DynamicDrawUsage)
}

/**
 * A second draw over some of a crowd's instances: the power-up shells, or the blob shadows, of the
 * instances that have them. Its rows are copies of the crowd's rows for those instances (the crowd
 * writes them in its own pass), with the light slot holding this layer's own values. Made with the
 * crowd, so that its place in three's draw order is fixed (the shadows, then the shells, as
 * `<MD2Model>` draws them), but hidden and holding nothing until first used (`open`). Rays pass through it.
 */
export class CrowdLayer extends InstancedMesh<BufferGeometry, Material> {
  data: InstancedInterleavedBuffer | undefined
  private readonly ranges = [0, 1].map(() => ({ start: 0, count: 0 }))

  constructor(sharedGeometry: BufferGeometry, material: Material, name: string) {
    super(sharedGeometry.clone(), material, 0)
    this.frustumCulled = false
    this.visible = false
    this.name = name
  }

  /** Makes room for `rows` drawn instances, read as `renderer` reads them, and shows the layer. */
  open(rows: number, renderer: CrowdRenderer): InstancedInterleavedBuffer {
    this.data ??= attachInstanceData(this.geometry, rows)
    this.instanceMatrix = createInstanceMatrices(renderer, rows)
    this.visible = true
    return this.data
  }

  override raycast(): void {}

  /** Rows `0 … count − 1` are written: uploads them and draws them. */
  commit(count: number): void {
    this.count = count
    if (!this.data) return
    uploadFirst(this.instanceMatrix, this.ranges[0]!, count)
    uploadFirst(this.data, this.ranges[1]!, count)
  }

  override dispose(): void {
    this.geometry.dispose()
    this.material.dispose()
    super.dispose()
  }
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

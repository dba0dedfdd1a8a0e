import { InstancedMesh, type BufferGeometry, type InstancedBufferAttribute, type InstancedInterleavedBuffer, type Material } from 'three'
import { attachInstanceData, uploadFirst } from './gpu/instanceRows.js'

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

  /** Makes room for as many drawn instances as `matrices` holds (made for the renderer drawing the crowd), and shows the layer. */
  open(matrices: InstancedBufferAttribute): InstancedInterleavedBuffer {
    this.data ??= attachInstanceData(this.geometry, matrices.count)
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

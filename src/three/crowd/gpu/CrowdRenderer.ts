import { DynamicDrawUsage, InstancedBufferAttribute, StaticDrawUsage, type InstancedMesh, type InterleavedBufferAttribute } from 'three'
import type { MD2ModelData } from '../../../core/format/types.js'
import { warnOnce } from '../../../core/warnOnce.js'
import { WEBGPU_IMPORT } from '../../materials/webgpuMaterials.js'
import { gpuDecodeInputs, type MD2GpuFrames } from './gpuFrames.js'
import type { MD2CrowdOptions } from './MD2CrowdOptions.js'
import { CrowdShaderState } from './CrowdShaderState.js'
import { PoseAtlas } from './poseAtlas.js'
import { webgpuSupport, type CrowdComputePass, type CrowdCullPass, type CrowdWebGPUSupport } from './webgpuSupport.js'

/** Instance matrices three's WebGL2 backend keeps in a uniform buffer of WebGL2's least size (16 KB). */
const UNIFORM_BLOCK_MATRICES = 256

/** Which renderer draws a crowd: its instance matrices are kept the way that renderer reads them best. */
export type CrowdRendererKind = 'webgl' | 'webgpu' | 'webgpu-webgl2'

/** What the renderer drawing a crowd tells of itself. */
interface DrawingRenderer {
  isWebGPURenderer?: boolean
  backend?: { isWebGPUBackend?: boolean; gl?: WebGL2RenderingContext }
  /** `WebGLRenderer`'s context. */
  getContext?(): WebGL2RenderingContext
}

/** Whether `gl` draws in software (SwiftShader, llvmpipe…): every vertex shaded on the CPU. */
function drawsInSoftware(gl: WebGL2RenderingContext | undefined): boolean {
  const info = gl?.getExtension('WEBGL_debug_renderer_info')
  return gl
    ? /swiftshader|llvmpipe|softpipe|software/i.test(String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)))
    : false
}

/**
 * The renderer drawing a crowd, met before it builds anything for the crowd, and what the crowd keeps
 * for it: its instance matrices (on real WebGPU a storage buffer, which three's instancing and the TSL
 * decode read without taking any of a pipeline's 16 vertex inputs), how many instances it can draw, and
 * the compute pass, which runs where it can. WebGPURenderer's WebGL2 backend reads the matrices as
 * vertex inputs past the uniform buffer's 1,024 matrices, more than the decode leaves: there the crowd
 * draws the instances in view that fit its uniform buffer (1,024 on SwiftShader), with a warning.
 * `WebGPURenderer` without the crowd's WebGPU side (`webgpuSupport`): a warning, and nothing drawn.
 */
export class CrowdRenderer {
  kind: CrowdRendererKind = 'webgl'
  /** Instances drawn at most (fewer than the limit only on WebGPURenderer's WebGL2 backend). */
  drawLimit: number
  /** The matrices are to be made again for the renderer last met (`fit`). */
  private refit = false
  readonly capacity: number
  /** The model's name, for warnings. */
  private readonly name: string
  /** Where the poses are blended, as asked (`MD2CrowdOptions.decode`). */
  readonly decode: 'vertex' | 'compute'
  /** The crowd's WebGPU side (`webgpuSupport`), if loaded. */
  readonly webgpu: CrowdWebGPUSupport | undefined
  /** The crowd's uniforms, shared by its materials (its time, the view it culls against). */
  readonly state: CrowdShaderState
  /** The compute pass (`decode: "compute"`, with the WebGPU side), in use once real WebGPU draws the crowd. */
  readonly computed: CrowdComputePass | undefined
  /** The compute pass culling the crowd when it is drawn from stored rows (with the WebGPU side), in use on real WebGPU. */
  readonly culled: CrowdCullPass | undefined
  /** Who works the poses out, as asked (`MD2CrowdOptions.pose`). */
  private posing: 'auto' | 'shader' | 'cpu' = 'auto'
  /** The renderer last met draws WebGL in software. */
  private software = false
  private met = false
  /** The poses worked out on the CPU, for the GLSL decode to read (`atlas`), made the first time they are. */
  private poseAtlas: PoseAtlas | undefined
  private readonly model: MD2ModelData
  private readonly maxTextureSize: number

  constructor(crowd: {
    model: MD2ModelData
    frames: MD2GpuFrames
    /** The crowd's per-frame rows, which the compute pass reads. */
    rows: Float32Array
    capacity: number
    decode: MD2CrowdOptions['decode']
    pose: MD2CrowdOptions['pose']
    maxTextureSize: number
  }) {
    const { model, capacity } = crowd
    this.model = model
    this.maxTextureSize = crowd.maxTextureSize
    this.capacity = this.drawLimit = capacity
    this.name = model.name ?? 'a model'
    this.decode = crowd.decode === 'compute' ? 'compute' : 'vertex'
    if (crowd.pose !== undefined) this.pose = crowd.pose
    if (crowd.decode !== undefined && crowd.decode !== this.decode)
      warnOnce(
        `crowd-decode:${String(crowd.decode)}`,
        `MD2Crowd (${this.name}): decode ${JSON.stringify(crowd.decode)} is not "vertex" or "compute"; using "vertex"`,
      )
    this.webgpu = webgpuSupport()
    this.state = new CrowdShaderState(crowd.frames.rows)
    const sphere = crowd.frames.geometry.boundingSphere!
    this.state.uniforms.md2Sphere.value.set(sphere.center.x, sphere.center.y, sphere.center.z, sphere.radius)
    const inputs = gpuDecodeInputs(crowd.frames)
    this.computed =
      this.decode === 'compute'
        ? this.webgpu?.createComputeDecode({ inputs, rows: crowd.rows, capacity, name: model.name ?? 'md2' })
        : undefined
    const indexCount = crowd.frames.geometry.index!.count
    this.culled =
      this.decode === 'vertex' ? this.webgpu?.createComputeCull({ rows: crowd.rows, capacity, indexCount, state: this.state }) : undefined
  }

  /** Meets the renderer about to draw the crowd: returns whether it is another kind than the last (then `fit` each mesh). */
  meet(renderer: unknown): boolean {
    const r = renderer as DrawingRenderer
    const kind = !r.isWebGPURenderer ? 'webgl' : r.backend?.isWebGPUBackend ? 'webgpu' : 'webgpu-webgl2'
    // The first renderer met may be of the kind assumed: it is met all the same (what it draws on, in software or not).
    if (kind === this.kind && this.met) return false
    this.met = true
    this.kind = kind
    // Matrices for every instance again, after a WebGL2 backend that drew fewer.
    this.refit = this.drawLimit < this.capacity
    this.drawLimit = this.capacity
    if (this.drawsNothing) {
      warnOnce(
        `crowd-webgpu-support:${this.name}`,
        `MD2Crowd (${this.name}): WebGPURenderer needs the GPU crowd's WebGPU side (its TSL decode), which is not loaded; this crowd draws nothing. Add \`${WEBGPU_IMPORT}\` once, before the first crowd is made`,
      )
      return true
    }
    const gl = r.backend?.gl
    // Real WebGPU has the compute pass: there the vertex stage only decodes whatever draws it.
    this.software = kind !== 'webgpu' && drawsInSoftware(gl ?? r.getContext?.())
    // Matrices of 64 bytes in one uniform block: 1,024 in SwiftShader's 64 KB, 256 in WebGL2's least.
    const most = gl ? Math.floor((gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number) / 64) : UNIFORM_BLOCK_MATRICES
    if (kind === 'webgpu-webgl2' && this.capacity > most) {
      warnOnce(
        `crowd-webgl2-backend:${this.capacity}`,
        `MD2Crowd (${this.name}, limit ${this.capacity}): WebGPURenderer's WebGL2 backend draws at most ${most} instances of a GPU crowd (past that three reads the instance matrices as vertex inputs, more than a pipeline has); the first ${most} in view are drawn. WebGLRenderer and WebGPU draw them all`,
      )
      this.drawLimit = most
      this.refit = true
    }
    // Before the material is built for this renderer: it reads the pass's storage if there is one.
    if (kind === 'webgpu') {
      this.computed?.prepare(renderer)
      this.culled?.prepare(renderer)
      this.refit = true
    }
    return true
  }

  get pose(): 'auto' | 'shader' | 'cpu' {
    return this.posing
  }

  /** Who works the poses out: anything but `"auto"`, `"shader"` or `"cpu"` warns once and is taken as `"auto"`. */
  set pose(pose: 'auto' | 'shader' | 'cpu') {
    const known = pose === 'shader' || pose === 'cpu'
    if (!known && pose !== 'auto')
      warnOnce(
        `crowd-pose:${String(pose)}`,
        `MD2Crowd (${this.name}): pose ${JSON.stringify(pose)} is not "auto", "shader" or "cpu"; using "auto"`,
      )
    this.posing = known ? pose : 'auto'
  }

  /** Whether the CPU works the poses out (`pose`: asked, or `"auto"` on a renderer drawing in software). */
  get posesOnCpu(): boolean {
    return this.posing === 'cpu' || (this.posing === 'auto' && this.software)
  }

  /**
   * Where the CPU works the poses out for WebGLRenderer, the atlas its rows are posed into (the GLSL decode reads one
   * texel a vertex from it); none elsewhere (the TSL decode reads posed rows as they are).
   */
  get atlas(): PoseAtlas | undefined {
    if (this.kind !== 'webgl' || !this.posesOnCpu) return undefined
    return (this.poseAtlas ??= new PoseAtlas(this.model, this.state, this.maxTextureSize))
  }

  dispose(): void {
    this.poseAtlas?.dispose()
  }

  /** A WebGPURenderer draws the crowd, and the crowd's WebGPU side is not loaded. */
  get drawsNothing(): boolean {
    return this.kind !== 'webgl' && !this.webgpu
  }

  /**
   * Gives `mesh` (the crowd, or one of its open layers) matrices for the renderer last met, if it needs new ones,
   * and its buffers the usage that renderer uploads them best by.
   */
  fit(mesh: InstancedMesh): void {
    const rows = (mesh.geometry.getAttribute('md2Clock') as InterleavedBufferAttribute | undefined)?.data
    rows?.setUsage(this.usage)
    if (!this.refit) {
      mesh.instanceMatrix.setUsage(this.usage)
      return
    }
    mesh.instanceMatrix.dispose()
    mesh.instanceMatrix = this.createMatrices()
  }

  /**
   * WebGPURenderer uploads a buffer of `DynamicDrawUsage` whole at every draw, changed or not; there the rows
   * are static, and uploaded when written (the ranges written). `WebGLRenderer` uploads on change either way.
   */
  private get usage(): typeof DynamicDrawUsage | typeof StaticDrawUsage {
    return this.kind === 'webgl' ? DynamicDrawUsage : StaticDrawUsage
  }

  /** Instance matrices for the instances drawn at most, as the renderer last met reads them. */
  createMatrices(): InstancedBufferAttribute {
    const array = new Float32Array(Math.min(this.capacity, this.drawLimit) * 16)
    const matrices =
      this.kind === 'webgpu' && this.webgpu ? this.webgpu.createStorageMatrices(array) : new InstancedBufferAttribute(array, 16)
    return matrices.setUsage(this.usage)
  }

  /** Where the poses were blended for the renderer last met: `"compute"` when the compute pass is in use. */
  get decodedBy(): 'vertex' | 'compute' {
    return this.kind === 'webgpu' && this.computed?.active ? 'compute' : 'vertex'
  }
}

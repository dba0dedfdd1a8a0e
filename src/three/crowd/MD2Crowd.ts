import {
  Color,
  DynamicDrawUsage,
  InstancedInterleavedBuffer,
  InstancedMesh,
  Matrix4,
  Mesh,
  Quaternion,
  MeshBasicMaterial,
  MeshDepthMaterial,
  MeshDistanceMaterial,
  MeshLambertMaterial,
  RGBADepthPacking,
  SRGBColorSpace,
  Sphere,
  Vector3,
  WebGPUCoordinateSystem,
  type BufferGeometry,
  type Camera,
  type Box3,
  type Intersection,
  type Material,
  type Raycaster,
  type Texture,
} from 'three'
import { findAnimation, type AnimationSelector } from '../../core/format/animationTable.js'
import type { PlayOptions } from '../../core/animation/KeyframeClock.js'
import { CROWD_POSE_STRIDE, CrowdClock, readCrowdPose, type CrowdEvents } from '../../core/animation/CrowdClock.js'
import { MD2Error } from '../../core/MD2Error.js'
import { createPose, type MD2Pose } from '../../core/animation/pose.js'
import {
  SHELL_ALPHA,
  effectiveShadelight,
  shadeDotsRow,
  shadowVector,
  shellColor,
  type Quake2LightFlags,
  type ShellSpec,
} from '../../core/lighting/quake2Light.js'
import type { MD2ModelData } from '../../core/format/types.js'
import type { MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { warnOnce } from '../../core/warnOnce.js'
import { createMD2Geometry, writeMD2Pose } from '../mesh/MD2Geometry.js'
import { createMD2ShadowMaterial } from '../materials/shadowMaterial.js'
import {
  BLEND,
  CrowdLayer,
  FADE_FRAMES,
  FRAMES,
  INSTANCE_STRIDE,
  LIGHT,
  SCALE_A,
  SCALE_B,
  SHIFT,
  attachInstanceData,
  createInstanceMatrices,
  uploadFirst,
  type CrowdRenderer,
} from './crowdLayers.js'
import { CrowdComputeDecode, type ComputeRenderer } from './crowdCompute.js'
import { acquireMD2GpuFrames, drawWithGpuFrames, gpuDecodeInputs, releaseMD2GpuFrames, type MD2GpuFrames } from './gpuFrames.js'
import { copyClampedCrowdPose, placeOnTag, resolveFollowing, type CrowdFollowing, type CrowdFollowOptions } from './crowdFollower.js'

export interface MD2CrowdOptions extends Quake2LightFlags {
  /** Instances it can hold (buffers are sized once). */
  limit: number
  /** `"lambert"` (default): three's lights. `"quake2"`: Quake II's light table per vertex, per instance yaw. */
  lighting?: 'lambert' | 'quake2'
  /** The skin. */
  map?: Texture | null
  /** Quake II lighting: the light at the models' feet (one level or RGB; default 1). */
  shadelight?: number | readonly [number, number, number]
  /** Draw translucent (0–1, default 1). */
  opacity?: number
  /**
   * Quake II power-up shells around every instance (`'red'`, `['red', 'blue']`, an RGB colour), as
   * `<MD2Model shell>`; `setShell(i, …)` changes one instance's.
   */
  shell?: ShellSpec | readonly ShellSpec[]
  /** `"blob"`: Quake II's blob shadow under every instance, as `<MD2Model shadow="blob">`; `setShadow(i, …)` changes one instance's. */
  shadow?: 'blob' | false
  /** World height of the floor blob shadows lie on. Default: under each instance's lowest point in any frame. */
  shadowFloor?: number
  /** The device's `MAX_TEXTURE_SIZE` (`renderer.capabilities.maxTextureSize`); rows of frames wrap below it. */
  maxTextureSize?: number
  /**
   * Where the poses are blended. `"vertex"` (default): in the vertex shader, on every renderer.
   * `"compute"`: on real WebGPU, by a compute pass once a frame into storage the draw (and its shadow-map
   * passes) read, at 32 bytes per MD2 vertex per instance of the limit; elsewhere, or past the device's
   * storage size, the vertex shader blends.
   */
  decode?: 'vertex' | 'compute'
}

/** The most instances one crowd holds (its buffers are sized by its limit up front). */
const MAX_CROWD_SIZE = 1 << 20

/** Instance matrices three's WebGL2 backend keeps in a uniform buffer of WebGL2's least size (16 KB). */
const UNIFORM_BLOCK_MATRICES = 256

/**
 * Many instances of one MD2 model in one draw call, animated on the GPU. The model's frames go to the GPU
 * once, as the file stores them (shared by every crowd of that model); per instance per frame only its
 * pose (two keyframes and a blend, a crossfade's two and its weight) and light are uploaded, for the
 * instances in view only (each is culled by its own bounding sphere, and culled instances cost no
 * vertex work). State lives in typed arrays: no object per instance, nothing allocated per frame.
 *
 * `setTransform(i, …)` places instance `i`, `play(i, …)` animates it (the rules of `MD2AnimationController`),
 * `update(seconds, camera)` moves time on and prepares the draw; `count` is then the instances drawn.
 * Raycasting reports the instance hit (`instanceId`) against its animated triangles.
 *
 * Power-up shells and blob shadows are drawn for the instances that have them (`setShell`, `setShadow`),
 * each kind in one more draw whose rows are written in the same pass.
 *
 * Another model (a weapon, a head) is drawn on every instance by a second crowd that `follow`s this
 * one: one more draw, each of its instances copying this crowd's instance of the same index.
 *
 * With `decode: "compute"`, on real WebGPU a compute pass blends the drawn instances' poses once a frame
 * (`crowdCompute.ts`) and the draw reads them; elsewhere the vertex shader blends, as by default.
 */
export class MD2Crowd extends InstancedMesh<BufferGeometry, Material> {
  readonly model: MD2ModelData
  readonly clock: CrowdClock
  readonly capacity: number
  /** GPU bytes of the model's frames (shared) and per instance (matrix and the per-frame attributes). */
  readonly gpuBytes: { frames: number; shared: number; perInstance: number }
  /** Where the poses are blended, as asked (`MD2CrowdOptions.decode`). */
  readonly decode: 'vertex' | 'compute'
  /** Instances in use: `0 … size − 1` are drawn when in view. */
  size = 0
  private readonly frames: MD2GpuFrames
  private readonly transforms: Float32Array
  private readonly radii: Float32Array
  private readonly shade: Float32Array
  private readonly ids: Int32Array
  private readonly hidden: Uint8Array
  private readonly instanceData: InstancedInterleavedBuffer
  /** The compute pass blending the poses (`decode: "compute"`), in use once a WebGPU renderer draws the crowd. */
  private readonly computed: CrowdComputeDecode | undefined
  private readonly quake2: boolean
  private flags: Quake2LightFlags
  private readonly sphere: Sphere
  /** The blob shadows of the instances that have one (one draw; hidden until one does). */
  readonly shadow: CrowdLayer
  /** The power-up shells of the instances that have one (one draw; hidden until one does). */
  readonly shell: CrowdLayer
  /** World height of the floor blob shadows lie on (`undefined`: under each instance's lowest point in any frame). */
  shadowFloor: number | undefined
  /** Per instance: its shell's colour (linear RGB) and whether it has one; whether it has a blob shadow. */
  private readonly shellColors: Float32Array
  private readonly shelled: Uint8Array
  private readonly shadowed: Uint8Array
  private readonly shadowParameters = new Float64Array(4)
  /** The crowd's own `shell` and `shadow`, which an instance set to `undefined` goes back to. */
  private readonly defaults: Pick<MD2CrowdOptions, 'shell' | 'shadow'>
  private readonly elapsed = { seconds: 0 }
  private readonly lightOut = new Float64Array(3)
  private readonly lightIn = new Float64Array(3)
  /** This model's UFO:AI tags (`parseMD2Tags`), where followers given a `tag` find it. */
  tags: MD2Tags | undefined
  private leaderCrowd: MD2Crowd | undefined
  private following: CrowdFollowing | undefined
  /** Crowds following this one, updated by this one's `update`, in the order they began following. */
  private readonly followers: MD2Crowd[] = []

  constructor(model: MD2ModelData, options: MD2CrowdOptions) {
    const limit = options.limit
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CROWD_SIZE)
      throw new MD2Error('BAD_ARGUMENT', `MD2Crowd: limit must be a whole number from 1 to ${MAX_CROWD_SIZE}, got ${String(limit)}`)
    const frames = acquireMD2GpuFrames(model, options.maxTextureSize ?? 4096)
    const quake2 = options.lighting === 'quake2'
    const opacity = options.opacity ?? 1
    const translucent = opacity < 1
    // The geometry is shared by every crowd of the model: the per-crowd attributes go on a copy.
    const geometry = frames.geometry.clone()
    const instanceData = attachInstanceData(geometry, limit)
    const decode = options.decode === 'compute' ? 'compute' : 'vertex'
    if (options.decode !== undefined && options.decode !== decode)
      warnOnce(
        `crowd-decode:${String(options.decode)}`,
        `MD2Crowd (${model.name ?? 'a model'}): decode ${JSON.stringify(options.decode)} is not "vertex" or "compute"; using "vertex"`,
      )
    const computed =
      decode === 'compute'
        ? new CrowdComputeDecode(gpuDecodeInputs(frames), instanceData.array as Float32Array, limit, model.name ?? 'md2')
        : undefined
    const material = drawWithGpuFrames(
      quake2
        ? new MeshBasicMaterial({ map: options.map ?? null, vertexColors: true, transparent: translucent, opacity })
        : new MeshLambertMaterial({ map: options.map ?? null, transparent: translucent, opacity }),
      frames,
      { quake2Light: quake2, normals: !quake2, computed },
    )
    super(geometry, material, limit)
    this.computed = computed
    this.decode = decode
    this.instanceData = instanceData
    this.model = model
    this.frames = frames
    this.capacity = limit
    this.drawLimit = limit
    this.quake2 = quake2
    this.flags = {}
    this.clock = new CrowdClock(limit, model.header.numFrames)
    this.transforms = new Float32Array(limit * 16)
    this.radii = new Float32Array(limit)
    this.shade = new Float32Array(limit * 3)
    for (let i = 0; i < limit; i++) this.transforms.set(IDENTITY, i * 16)
    this.setLighting(options)
    this.radii.fill(frames.geometry.boundingSphere!.radius)
    this.ids = new Int32Array(limit)
    this.hidden = new Uint8Array(limit)
    this.sphere = frames.geometry.boundingSphere!.clone()
    this.instanceMatrix.setUsage(DynamicDrawUsage)
    this.onBeforeRender = (renderer) => {
      this.drawnBy(renderer)
      this.computed?.run(renderer as unknown as ComputeRenderer, this.count)
    }
    this.customDepthMaterial = drawWithGpuFrames(new MeshDepthMaterial({ depthPacking: RGBADepthPacking }), frames, { computed })
    this.customDistanceMaterial = drawWithGpuFrames(new MeshDistanceMaterial(), frames, { computed })
    this.shellColors = new Float32Array(limit * 3)
    this.shelled = new Uint8Array(limit)
    this.shadowed = new Uint8Array(limit)
    this.shadowFloor = options.shadowFloor
    this.defaults = { shell: options.shell, shadow: options.shadow }
    const name = model.name ?? 'md2'
    // Shadows first: three draws translucent meshes at one depth in the order they were made.
    this.shadow = new CrowdLayer(frames.geometry, drawWithGpuFrames(createMD2ShadowMaterial(), frames, { shadow: true }), `${name} shadow`)
    const shellMaterial = new MeshBasicMaterial({ transparent: true, opacity: SHELL_ALPHA, depthWrite: false })
    this.shell = new CrowdLayer(
      frames.geometry,
      drawWithGpuFrames(shellMaterial, frames, { shell: true, instanceColor: true }),
      `${name} shell`,
    )
    for (const layer of [this.shadow, this.shell]) {
      layer.onBeforeRender = (renderer) => this.drawnBy(renderer)
      this.add(layer)
    }
    if (options.shell !== undefined && this.writeShell(0, options.shell)) {
      // Every instance the same: the colour is worked out once.
      this.shelled.fill(1)
      for (let i = 1; i < limit; i++) this.shellColors.copyWithin(i * 3, 0, 3)
    }
    if (options.shadow === 'blob') {
      this.shadowed.fill(1)
      this.openLayer(this.shadow)
    }
    // Culled here, instance by instance, in `update`.
    this.frustumCulled = false
    this.count = 0
    this.gpuBytes = { frames: frames.frameBytes, shared: frames.sharedBytes, perInstance: (16 + INSTANCE_STRIDE) * 4 }
  }

  /**
   * Instance `i`'s power-up shells (`'red'`, `['red', 'blue']`, an RGB colour, as `<MD2Model shell>`),
   * none (`null`, `[]`), or the crowd's `shell` (`undefined`). A follower's instance also wears its
   * leader's instance's shell (Quake II draws a player's weapon in the player's shell), its own first.
   */
  setShell(i: number, given: ShellSpec | readonly ShellSpec[] | null | undefined): void {
    this.checkIndex(i)
    this.writeShell(i, given === undefined ? (this.defaults.shell ?? null) : given)
  }

  /** Sets instance `i`'s shell (or none); returns whether it has one. */
  private writeShell(i: number, shell: ShellSpec | readonly ShellSpec[] | null): boolean {
    const on = shell !== null && (typeof shell === 'string' || shell.length > 0)
    this.shelled[i] = on ? 1 : 0
    if (!on) return false
    // The shell's colour is given as sRGB, as a material's colour is.
    const [r, g, b] = shellColor(shell)
    scratchColor.setRGB(r, g, b, SRGBColorSpace)
    this.shellColors[i * 3] = scratchColor.r
    this.shellColors[i * 3 + 1] = scratchColor.g
    this.shellColors[i * 3 + 2] = scratchColor.b
    this.openLayer(this.shell)
    return true
  }

  /**
   * Whether instance `i` casts Quake II's blob shadow (`"blob"`, as `<MD2Model shadow="blob">`) on the
   * floor at `shadowFloor`; `undefined`: as the crowd's `shadow`. A follower's instance also casts one
   * when its leader's instance does, on the leader's floor.
   */
  setShadow(i: number, given: 'blob' | false | null | undefined): void {
    this.checkIndex(i)
    const shadow = given === undefined ? this.defaults.shadow : given
    this.shadowed[i] = shadow === 'blob' ? 1 : 0
    if (shadow === 'blob') this.openLayer(this.shadow)
  }

  /** Gives a layer its rows, when first used. */
  private openLayer(layer: CrowdLayer): void {
    if (!layer.data) layer.open(Math.min(this.capacity, this.drawLimit), this.renderer)
  }

  /** Places instance `i` (relative to the crowd): a position, a rotation (a yaw in radians about +Y, or a quaternion) and a scale. */
  setTransform(
    i: number,
    position: Readonly<Vector3Like>,
    rotation: number | Quaternion = 0,
    scale: number | Readonly<Vector3Like> = 1,
  ): void {
    this.checkIndex(i)
    const m = scratchMatrix
    if (typeof rotation === 'number') scratchQuaternion.setFromAxisAngle(UP, rotation)
    else scratchQuaternion.copy(rotation)
    scratchPosition.set(position.x, position.y, position.z)
    if (typeof scale === 'number') scratchScale.setScalar(scale)
    else scratchScale.set(scale.x, scale.y, scale.z)
    m.compose(scratchPosition, scratchQuaternion, scratchScale)
    this.setMatrix(i, m)
  }

  /** Places instance `i` by a matrix (relative to the crowd). */
  setMatrix(i: number, matrix: Readonly<Matrix4>): void {
    this.checkIndex(i)
    if (this.ledBy('setMatrix', 'place')) return
    const e = matrix.elements
    this.transforms.set(e, i * 16)
    // Not Math.hypot: V8 allocates in it, and <MD2Instance> places its instance every frame.
    const sx = Math.sqrt(e[0]! * e[0]! + e[1]! * e[1]! + e[2]! * e[2]!)
    const sy = Math.sqrt(e[4]! * e[4]! + e[5]! * e[5]! + e[6]! * e[6]!)
    const sz = Math.sqrt(e[8]! * e[8]! + e[9]! * e[9]! + e[10]! * e[10]!)
    this.radii[i] = this.sphere.radius * Math.max(sx, sy, sz)
    this.hidden[i] = 0
    if (i >= this.size) this.size = i + 1
  }

  /** Stops drawing instance `i` until it is placed again. */
  hide(i: number): void {
    this.checkIndex(i)
    if (this.ledBy('hide', 'place')) return
    this.hidden[i] = 1
  }

  /** Plays an animation of the model (by name, index or range) on instance `i`, as `MD2AnimationController.play`. */
  play(i: number, animation: AnimationSelector, options: PlayOptions = {}): void {
    this.checkIndex(i)
    if (this.following?.sync && this.ledBy('play', 'pose')) return
    const found = findAnimation(this.model, animation)
    if (!found) {
      warnOnce(
        `crowd:${this.model.name}:${String(animation)}`,
        `${this.model.name ?? 'model'}: no animation ${JSON.stringify(animation)}; instance left as it was`,
      )
      return
    }
    this.clock.play(i, found, options)
    if (i >= this.size) this.size = i + 1
  }

  /** Shows a still frame on instance `i` (fractional: between two keyframes). */
  showFrame(i: number, frame: number): void {
    this.checkIndex(i)
    if (this.following?.sync && this.ledBy('showFrame', 'pose')) return
    this.clock.showFrame(i, frame)
  }

  /** Shows a pose computed elsewhere (an `MD2AnimationController` of its own) on instance `i`. */
  setPose(i: number, pose: Readonly<MD2Pose>): void {
    this.checkIndex(i)
    if (this.following?.sync && this.ledBy('setPose', 'pose')) return
    this.clock.setPose(i, pose)
  }

  /** Quake II lighting for every instance: the shadelight (one level or RGB) and the entity flags. */
  setLighting(options: Pick<MD2CrowdOptions, 'shadelight' | 'minlight' | 'fullbright' | 'glow'>): void {
    this.flags = { minlight: options.minlight, fullbright: options.fullbright, glow: options.glow }
    const level = options.shadelight ?? 1
    for (let i = 0; i < this.capacity; i++) {
      for (let c = 0; c < 3; c++) this.shade[i * 3 + c] = typeof level === 'number' ? level : level[c]!
    }
  }

  /** Quake II lighting: the light at instance `i`'s feet (RGB, 0–1 and over). */
  setShadelight(i: number, r: number, g = r, b = r): void {
    this.checkIndex(i)
    this.shade[i * 3] = r
    this.shade[i * 3 + 1] = g
    this.shade[i * 3 + 2] = b
  }

  /**
   * Moves every instance's animation on by `seconds`, then writes the instances in `camera`'s view (all
   * of them without a camera) into the per-frame attributes: `count` becomes the number drawn. Then
   * updates the crowds that follow this one, in the same call. A follower's own `update` does nothing:
   * its leader's draws it.
   */
  update(seconds: number, camera?: Camera): void {
    if (this.leaderCrowd) return
    this.clock.advance(seconds, this.size)
    if (seconds > 0 && Number.isFinite(seconds)) this.elapsed.seconds += seconds
    this.updateMatrixWorld()
    const planes = camera ? localFrustum(this, camera) : undefined
    const t = this.transforms
    const c = this.sphere.center
    let drawn = 0
    for (let i = 0; i < this.size; i++) {
      if (this.hidden[i]) continue
      if (planes) {
        const o = i * 16
        const x = t[o]! * c.x + t[o + 4]! * c.y + t[o + 8]! * c.z + t[o + 12]!
        const y = t[o + 1]! * c.x + t[o + 5]! * c.y + t[o + 9]! * c.z + t[o + 13]!
        const z = t[o + 2]! * c.x + t[o + 6]! * c.y + t[o + 10]! * c.z + t[o + 14]!
        const r = -this.radii[i]!
        let inside = true
        for (let p = 0; p < 24; p += 4) {
          if (planes[p]! * x + planes[p + 1]! * y + planes[p + 2]! * z + planes[p + 3]! < r) {
            inside = false
            break
          }
        }
        if (!inside) continue
      }
      this.ids[drawn++] = i
      if (drawn === this.drawLimit) break
    }
    this.writeDrawn(drawn)
    this.updateFollowers(seconds)
  }

  /**
   * Makes this crowd draw its model on `leader`'s instances (a weapon in every hand, a head on every
   * neck), in one more draw: its instance `i` copies the leader's instance `i` on every leader
   * `update` (which updates it, after itself), with its transform (times `tag`'s placement for the
   * leader's pose, when given), hidden state and culling (drawn exactly when the leader's instance is,
   * never culled again), and, with `sync` (the default), the leader's frames, clamped to this model's
   * as `<MD2Model sync>` does. The instances are in the leader's space: a crowd with no parent is added
   * to the leader. Its own look (skin, lighting, shadelight, shell) stays its own. `follow(null)` stops.
   * Refused with an `MD2Error`: following itself or its own follower, a leader of a larger limit, a tag
   * without tags; an unknown tag warns once and places the instances at the leader's origin.
   */
  follow(leader: MD2Crowd | null, options: CrowdFollowOptions = {}): void {
    if (leader) {
      for (let above: MD2Crowd | undefined = leader; above; above = above.leaderCrowd) {
        if (above === this)
          throw new MD2Error(
            'BAD_ARGUMENT',
            `MD2Crowd.follow: ${this.model.name ?? 'a crowd'} cannot follow ${leader === this ? 'itself' : 'a crowd that follows it'}`,
          )
      }
      if (leader.capacity > this.capacity)
        throw new MD2Error(
          'BAD_ARGUMENT',
          `MD2Crowd.follow: the leader (${leader.model.name ?? 'a crowd'}) holds ${leader.capacity} instances and this crowd (${this.model.name ?? 'a crowd'}) ${this.capacity}; give it a limit of at least ${leader.capacity}`,
        )
    }
    const following = leader ? resolveFollowing(leader.model, leader.tags, options) : undefined
    const before = this.leaderCrowd
    if (before) before.followers.splice(before.followers.indexOf(this), 1)
    if (this.addedTo && this.parent === this.addedTo) this.addedTo.remove(this)
    this.addedTo = undefined
    this.leaderCrowd = leader ?? undefined
    this.following = following
    this.count = 0
    this.shell.commit(0)
    this.shadow.commit(0)
    if (!leader) return
    leader.followers.push(this)
    if (!this.parent) {
      leader.add(this)
      this.addedTo = leader
    }
  }

  /** Instances drawn at most (fewer than the limit only on WebGPURenderer's WebGL2 backend). */
  private drawLimit: number
  private renderer: CrowdRenderer = 'webgl'

  /**
   * Fits the instance matrices to the renderer about to draw the crowd, before it builds anything for it.
   * On real WebGPU they become a storage buffer, which three's instancing and the TSL decode read
   * without taking any of a pipeline's 16 vertex inputs. WebGPURenderer's WebGL2 backend reads them as
   * vertex inputs past the uniform buffer's 1,024 matrices, more than the decode leaves: there the crowd
   * draws the instances in view that fit its uniform buffer (1,024 on SwiftShader), with a warning.
   */
  private drawnBy(renderer: unknown): void {
    const r = renderer as { isWebGPURenderer?: boolean; backend?: { isWebGPUBackend?: boolean; gl?: WebGL2RenderingContext } }
    const kind = !r.isWebGPURenderer ? 'webgl' : r.backend?.isWebGPUBackend ? 'webgpu' : 'webgpu-webgl2'
    if (kind === this.renderer) return
    this.renderer = kind
    const gl = r.backend?.gl
    // Matrices of 64 bytes in one uniform block: 1,024 in SwiftShader's 64 KB, 256 in WebGL2's least.
    const most = gl ? Math.floor((gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number) / 64) : UNIFORM_BLOCK_MATRICES
    if (kind === 'webgpu-webgl2' && this.capacity > most) {
      warnOnce(
        `crowd-webgl2-backend:${this.capacity}`,
        `MD2Crowd (${this.model.name ?? 'a model'}, limit ${this.capacity}): WebGPURenderer's WebGL2 backend draws at most ${most} instances of a GPU crowd (past that three reads the instance matrices as vertex inputs, more than a pipeline has); the first ${most} in view are drawn. WebGLRenderer and WebGPU draw them all`,
      )
      this.drawLimit = most
    } else if (kind !== 'webgpu') return
    // Before the material is built for this renderer: it reads the pass's storage if there is one.
    if (kind === 'webgpu') this.computed?.prepare(renderer as ComputeRenderer)
    const rows = Math.min(this.capacity, this.drawLimit)
    for (const mesh of [this, this.shell, this.shadow]) {
      if (mesh !== this && !(mesh as CrowdLayer).data) continue
      mesh.instanceMatrix.dispose()
      mesh.instanceMatrix = createInstanceMatrices(kind, rows)
    }
    // The matrices are written for the instances drawn: write them again into the new buffers.
    this.writeDrawn(this.count)
  }

  /** The leader `follow` added this crowd to (removed from it again when it stops following). */
  private addedTo: MD2Crowd | undefined

  /** Where the poses were blended for the renderer that last drew the crowd: `"compute"` when the compute pass is in use. */
  get decodedBy(): 'vertex' | 'compute' {
    return this.renderer === 'webgpu' && this.computed?.active ? 'compute' : 'vertex'
  }

  /** The crowd this one follows (`follow`), if any. */
  get leader(): MD2Crowd | undefined {
    return this.leaderCrowd
  }

  /** Each follower's instances: the leader's drawn ones, in the leader's order, posed and placed from it. */
  private updateFollowers(seconds: number): void {
    for (let f = 0; f < this.followers.length; f++) this.followers[f]!.updateFromLeader(seconds)
  }

  private updateFromLeader(seconds: number): void {
    const leader = this.leaderCrowd!
    const following = this.following!
    this.size = leader.size
    if (!following.sync) this.clock.advance(seconds, this.size)
    if (seconds > 0 && Number.isFinite(seconds)) this.elapsed.seconds += seconds
    this.updateMatrixWorld()
    // Its leader's shells and shadows are drawn on it too.
    if (leader.shell.data) this.openLayer(this.shell)
    if (leader.shadow.data) this.openLayer(this.shadow)
    const drawn = leader.count
    for (let k = 0; k < drawn; k++) {
      const i = leader.ids[k]!
      this.ids[k] = i
      this.copyFromLeader(i, leader, following)
    }
    this.writeDrawn(drawn)
    this.updateFollowers(seconds)
  }

  /** Instance `i`'s transform (and, synced, its pose) from the leader's, into this crowd's own arrays. */
  private copyFromLeader(i: number, leader: MD2Crowd, following: CrowdFollowing): void {
    if (following.sync) copyClampedCrowdPose(this.clock.poses, leader.clock.poses, i, this.model, following.pose)
    placeOnTag(this.transforms, leader.transforms, leader.clock.poses, i, following)
  }

  /** Writes the per-frame attributes of the instances listed in `ids[0 … drawn − 1]`; `count` becomes `drawn`. */
  private writeDrawn(drawn: number): void {
    const t = this.transforms
    const matrices = this.instanceMatrix.array as Float32Array
    const data = this.instanceData.array as Float32Array
    const rows = this.frames.rows
    const m = this.model.frameTransforms
    const poses = this.clock.poses
    const w = this.matrixWorld.elements
    const leader = this.leaderCrowd
    const shellData = this.shell.data?.array as Float32Array | undefined
    const shellMatrices = this.shell.instanceMatrix.array as Float32Array
    const shadowData = this.shadow.data?.array as Float32Array | undefined
    const shadowMatrices = this.shadow.instanceMatrix.array as Float32Array
    let shelledRows = 0
    let shadowRows = 0
    for (let k = 0; k < drawn; k++) {
      const i = this.ids[k]!
      const o = i * 16
      for (let e = 0; e < 16; e++) matrices[k * 16 + e] = t[o + e]!
      const s = i * CROWD_POSE_STRIDE
      const a = k * INSTANCE_STRIDE
      // Each keyframe as (block, row) of the frames texture: the shader then needs no division.
      placeFrame(data, a + FRAMES, poses[s]!, rows)
      placeFrame(data, a + FRAMES + 2, poses[s + 1]!, rows)
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
        placeFrame(data, a + FADE_FRAMES, poses[s + 4]!, rows)
        placeFrame(data, a + FADE_FRAMES + 2, poses[s + 5]!, rows)
        data[a + BLEND + 1] = poses[s + 6]!
      }
      const shadowed = shadowData !== undefined && (this.shadowed[i] === 1 || leader?.shadowed[i] === 1)
      // The instance's world yaw in degrees (its +Z axis seen from above), for the light table's row and the shadow.
      let yaw = 0
      if (this.quake2 || shadowed) {
        const zx = w[0]! * t[o + 8]! + w[4]! * t[o + 9]! + w[8]! * t[o + 10]!
        const zz = w[2]! * t[o + 8]! + w[6]! * t[o + 9]! + w[10]! * t[o + 10]!
        yaw = (Math.atan2(zx, zz) * 180) / Math.PI
      }
      if (this.quake2) {
        const lightIn = this.lightIn
        lightIn[0] = this.shade[i * 3]!
        lightIn[1] = this.shade[i * 3 + 1]!
        lightIn[2] = this.shade[i * 3 + 2]!
        const shade = effectiveShadelight(lightIn, this.flags, this.elapsed, this.lightOut)
        data[a + LIGHT] = shade[0]!
        data[a + LIGHT + 1] = shade[1]!
        data[a + LIGHT + 2] = shade[2]!
        data[a + BLEND + 3] = shadeDotsRow(yaw)
      }
      if (shellData) {
        // Its own shell, else its leader's instance's.
        const wearer = this.shelled[i] ? this : leader?.shelled[i] ? leader : undefined
        if (wearer) {
          const at = copyRow(matrices, data, k, shellMatrices, shellData, shelledRows++)
          for (let c = 0; c < 3; c++) shellData[at + LIGHT + c] = wearer.shellColors[i * 3 + c]!
        }
      }
      if (shadowed && shadowData) {
        const at = copyRow(matrices, data, k, shadowMatrices, shadowData, shadowRows++)
        // The shade vector for the instance's world yaw, as GL_DrawAliasShadow's.
        const parameters = this.shadowParameters
        parameters[3] = yaw
        shadowVector(parameters)
        shadowData[at + LIGHT] = parameters[0]!
        shadowData[at + LIGHT + 1] = parameters[1]!
        shadowData[at + LIGHT + 2] = this.shadowHeight(i)
      }
    }
    this.count = drawn
    uploadFirst(this.instanceMatrix, this.ranges[0]!, drawn)
    uploadFirst(this.instanceData, this.ranges[1]!, drawn)
    this.computed?.rowsWritten(drawn)
    this.shell.commit(shelledRows)
    this.shadow.commit(shadowRows)
  }

  /** One update range object per attribute, reused every frame (`addUpdateRange` makes a new one). */
  private readonly ranges = [0, 1].map(() => ({ start: 0, count: 0 }))

  /**
   * Instance `i`'s origin's height above the floor its blob shadow lies on, in model units: the crowd's
   * `shadowFloor`, else a follower's leader's floor for that instance, else the lowest point of any frame.
   */
  private shadowHeight(i: number): number {
    if (this.shadowFloor === undefined && !this.leaderCrowd) return -this.frames.geometry.boundingBox!.min.y
    return (this.instanceHeight(i) - this.floorUnder(i)) / this.instanceScaleY(i)
  }

  /** The world height of the floor under instance `i`'s blob shadow. */
  private floorUnder(i: number): number {
    if (this.shadowFloor !== undefined) return this.shadowFloor
    if (this.leaderCrowd) return this.leaderCrowd.floorUnder(i)
    return this.instanceHeight(i) + this.frames.geometry.boundingBox!.min.y * this.instanceScaleY(i)
  }

  /** The world height of instance `i`'s origin. */
  private instanceHeight(i: number): number {
    const w = this.matrixWorld.elements
    const o = i * 16
    const t = this.transforms
    return w[1]! * t[o + 12]! + w[5]! * t[o + 13]! + w[9]! * t[o + 14]! + w[13]!
  }

  /** The world length of instance `i`'s Y axis (its model units to world units, upwards). */
  private instanceScaleY(i: number): number {
    const w = this.matrixWorld.elements
    const o = i * 16
    const t = this.transforms
    const x = w[0]! * t[o + 4]! + w[4]! * t[o + 5]! + w[8]! * t[o + 6]!
    const y = w[1]! * t[o + 4]! + w[5]! * t[o + 5]! + w[9]! * t[o + 6]!
    const z = w[2]! * t[o + 4]! + w[6]! * t[o + 5]! + w[10]! * t[o + 6]!
    return Math.sqrt(x * x + y * y + z * z) || 1
  }

  /** Which instance the drawn slot `k` shows (slots are the instances in view, in order). */
  instanceAt(k: number): number {
    return this.ids[k]!
  }

  /**
   * The box of instance `i`'s pose as drawn now, placed by its transform (in the crowd's space, as
   * `getMatrixAt`), written into `target`: for colliders and camera fitting. A query, not a per-frame
   * path: the pose is blended once into a scratch buffer and its vertices transformed.
   */
  getPoseBounds(i: number, target: Box3): Box3 {
    this.checkIndex(i)
    // A follower's instance as its leader places it now (its arrays are written only for instances drawn).
    if (this.leaderCrowd) this.copyFromLeader(i, this.leaderCrowd, this.following!)
    const scratch = (this.scratch ??= this.makeScratch())
    readCrowdPose(this.clock.poses, i, scratch.pose)
    const geometry = scratch.mesh.geometry
    writeMD2Pose(geometry, scratch.pose)
    const positions = geometry.getAttribute('position').array as Float32Array
    const e = instanceWorld.fromArray(this.transforms, i * 16).elements
    target.makeEmpty()
    for (let o = 0; o < positions.length; o += 3) {
      const x = positions[o]!,
        y = positions[o + 1]!,
        z = positions[o + 2]!
      corner.set(
        e[0]! * x + e[4]! * y + e[8]! * z + e[12]!,
        e[1]! * x + e[5]! * y + e[9]! * z + e[13]!,
        e[2]! * x + e[6]! * y + e[10]! * z + e[14]!,
      )
      target.expandByPoint(corner)
    }
    return target
  }

  /** Hits against each drawn instance's animated triangles, nearest first by the caller's sort; `instanceId` is the instance. */
  override raycast(raycaster: Raycaster, intersects: Intersection[]): void {
    const scratch = (this.scratch ??= this.makeScratch())
    for (let k = 0; k < this.count; k++) {
      const i = this.ids[k]!
      instanceWorld.fromArray(this.transforms, i * 16).premultiply(this.matrixWorld)
      worldSphere.copy(this.sphere).applyMatrix4(instanceWorld)
      if (!raycaster.ray.intersectsSphere(worldSphere)) continue
      readCrowdPose(this.clock.poses, i, scratch.pose)
      writeMD2Pose(scratch.mesh.geometry, scratch.pose)
      scratch.mesh.geometry.boundingSphere = this.sphere
      scratch.mesh.matrixWorld.copy(instanceWorld)
      const before = intersects.length
      scratch.mesh.raycast(raycaster, intersects)
      for (let h = before; h < intersects.length; h++) {
        intersects[h]!.instanceId = i
        intersects[h]!.object = this
      }
    }
  }

  private scratch: { mesh: Mesh; pose: MD2Pose } | undefined

  private makeScratch(): { mesh: Mesh; pose: MD2Pose } {
    return { mesh: new Mesh(createMD2Geometry(this.model), this.material), pose: createPose(0) }
  }

  private released = false

  /** Frees this crowd's GPU resources and its share of the model's (once: a second call does nothing). */
  override dispose(): void {
    // The shared frame data is counted: releasing it twice would free it under another crowd.
    if (!this.released) releaseMD2GpuFrames(this.model, this.frames)
    this.released = true
    // Followers stop drawing; a disposed follower leaves its leader's list.
    for (const follower of [...this.followers]) follower.follow(null)
    if (this.leaderCrowd) this.follow(null)
    this.geometry.dispose()
    this.material.dispose()
    this.customDepthMaterial?.dispose()
    this.customDistanceMaterial?.dispose()
    this.shell.dispose()
    this.shadow.dispose()
    this.computed?.dispose()
    this.scratch?.mesh.geometry.dispose()
    super.dispose()
  }

  /**
   * Events of every instance, with the instance first: `onFrame(i, frame)` as a keyframe is reached
   * (once each, in order, at any frame rate), `onLoop(i)`, `onEnd(i)`; called during `update`.
   */
  get events(): CrowdEvents | undefined {
    return this.clock.events
  }

  set events(events: CrowdEvents | undefined) {
    this.clock.events = events
  }

  /** On a follower, `what` comes from the leader: warns once and says so (true: the call is ignored). */
  private ledBy(method: string, what: 'place' | 'pose'): boolean {
    const leader = this.leaderCrowd
    if (!leader) return false
    warnOnce(
      `crowd-follower:${this.model.name}:${method}`,
      `MD2Crowd.${method}: ${this.model.name ?? 'this crowd'} follows ${leader.model.name ?? 'another crowd'}, which ${what === 'place' ? 'places and hides' : 'poses'} its instances; call it on the leader (ignored here)`,
    )
    return true
  }

  private checkIndex(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.capacity)
      throw new MD2Error('BAD_ARGUMENT', `MD2Crowd: instance ${String(i)} is outside 0…${this.capacity - 1} (the crowd's limit)`)
  }
}

export interface Vector3Like {
  x: number
  y: number
  z: number
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

const IDENTITY = new Matrix4().elements
const UP = new Vector3(0, 1, 0)
const scratchMatrix = new Matrix4()
const scratchQuaternion = new Quaternion()
const scratchPosition = new Vector3()
const scratchScale = new Vector3()
const instanceWorld = new Matrix4()
const scratchColor = new Color()
const corner = new Vector3()
const worldSphere = new Sphere()
const projection = new Matrix4()
const localPlanes = new Float32Array(24)

/**
 * The camera's frustum planes in the crowd's own space (normal xyz, constant; from projection × view ×
 * the crowd's world matrix, as three's `Frustum` extracts them), written without a call per plane.
 */
function localFrustum(crowd: MD2Crowd, camera: Camera): Float32Array {
  camera.updateMatrixWorld()
  const m = projection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(crowd.matrixWorld).elements
  const out = localPlanes
  // Right, left, bottom, top, far, near.
  const rows = PLANE_ROWS
  for (let p = 0; p < 6; p++) {
    const row = rows[p * 2]!
    const sign = rows[p * 2 + 1]!
    const webgpuNear = p === 5 && camera.coordinateSystem === WebGPUCoordinateSystem
    const x = webgpuNear ? m[2]! : m[3]! + sign * m[row]!
    const y = webgpuNear ? m[6]! : m[7]! + sign * m[row + 4]!
    const z = webgpuNear ? m[10]! : m[11]! + sign * m[row + 8]!
    const w = webgpuNear ? m[14]! : m[15]! + sign * m[row + 12]!
    const length = Math.sqrt(x * x + y * y + z * z)
    out[p * 4] = x / length
    out[p * 4 + 1] = y / length
    out[p * 4 + 2] = z / length
    out[p * 4 + 3] = w / length
  }
  return out
}

/** For each plane, the projection row combined with the fourth and its sign. */
const PLANE_ROWS = new Int8Array([0, -1, 0, 1, 1, 1, 1, -1, 2, -1, 2, 1])

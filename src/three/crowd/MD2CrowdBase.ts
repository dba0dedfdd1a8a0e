import {
  DynamicDrawUsage,
  InstancedMesh,
  Matrix4,
  type Box3,
  type BufferGeometry,
  type Camera,
  type Intersection,
  type Material,
  type Object3D,
  type Raycaster,
} from 'three'
import { findAnimation, type AnimationSelector } from '../../core/format/animationTable.js'
import { NO_PLAY_OPTIONS, type PlayOptions } from '../../core/animation/KeyframeClock.js'
import { CrowdClock, type CrowdEvents } from '../../core/animation/CrowdClock.js'
import { MD2Error } from '../../core/MD2Error.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import { fitStanding, type MD2Origin } from '../../core/format/standingBounds.js'
import type { MD2ModelData } from '../../core/format/types.js'
import type { MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { warnOnce } from '../../core/warnOnce.js'
import { CrowdInstances, composeTransform, type CrowdTransform } from './gpu/CrowdInstances.js'
import { crowdParts, posedOnItsOwn, type CrowdParts } from './crowdParts.js'
import type { CrowdQueries } from './CrowdQueries.js'
import { dressedLooks, queriesNotLoaded, refuseLooksOptions, type CrowdDress } from './crowdDress.js'
import { loadedCrowdQueries } from './loadCrowdQueries.js'
import { writePosedRows } from './posedRows.js'
import { CrowdRenderer } from './gpu/CrowdRenderer.js'
import { crowdShaderStates } from './gpu/CrowdShaderState.js'
import { acquireMD2GpuFrames, createCrowdMaterials, releaseMD2GpuFrames, type MD2GpuFrames } from './gpu/gpuFrames.js'
import { INSTANCE_STRIDE, InstanceRowWriter, attachInstanceData } from './gpu/instanceRows.js'
import type { MD2CrowdOptions } from './gpu/MD2CrowdOptions.js'
import type { CrowdLayer } from './CrowdLayer.js'
import type { CrowdLighting, CrowdLooks, CrowdShell } from './CrowdLooks.js'

// Where `MD2Crowd` has always found it: what it gives its base (the looks, the queries), the base's errors without them.
export type { CrowdDress } from './crowdDress.js'

/** Scratch for `setMatrix`: an instance's matrix times the crowd's standing one. */
const placedMatrix = new Matrix4()

/** The most instances one crowd holds (its buffers are sized by its limit up front). */
const MAX_CROWD_SIZE = 1 << 20

/**
 * Many instances of one MD2 model in one draw call, animated on the GPU. The model's frames go to the GPU
 * once, as the file stores them (shared by every crowd of that model); per instance per frame only its
 * pose (two keyframes and a blend, a crossfade's two and its weight) and light are uploaded, for the
 * instances in view only (each is culled by its own bounding sphere, and culled instances cost no
 * vertex work). State lives in typed arrays: no object per instance, nothing allocated per frame.
 *
 * `setTransform(i, { position, rotation, scale })` places instance `i`, `play(i, …)` animates it (the
 * rules of `MD2AnimationController`), `update(seconds, camera)` moves time on and prepares the draw;
 * `count` is then the instances drawn. Raycasting reports the instance hit (`instanceId`) against its
 * animated triangles.
 *
 * Power-up shells and blob shadows are drawn for the instances that have them (`setShell`, `setShadow`),
 * each kind in one more draw whose rows are written in the same pass.
 *
 * Another model (a weapon, a head) is drawn on every instance by a second crowd following this one
 * (`followCrowd`): one more draw, each of its instances copying this crowd's instance of the same index.
 *
 * With `decode: "compute"`, on real WebGPU a compute pass blends the drawn instances' poses once a frame
 * and the draw reads them; elsewhere the vertex shader blends, as by default.
 *
 * This class gives each job to a part (see the folder's README): the instances and their transforms
 * (`CrowdInstances`), their shells, shadows and light (`CrowdLooks`), the follower chain (`CrowdLink`, made by `followCrowd`),
 * the renderer drawing the crowd (`CrowdRenderer`), the per-frame rows (`InstanceRowWriter`) and the
 * queries (`CrowdQueries`).
 *
 * This is the crowd without its looks (`MD2Crowd` is this with them): it is drawn from stored rows unless it
 * follows another or the poses are to be written per frame (`drawsPosed`); its
 * look members (`setShell`, `setShadow`, `setLighting`, `setShadelight`, `shell`, `shadow`, `shadowFloor`) and
 * the options asking for looks throw an `MD2Error` (`UNSUPPORTED`) naming the import that brings them.
 * `<MD2Instances>` makes one in an app that imports no look.
 */
export class MD2CrowdBase extends InstancedMesh<BufferGeometry, Material> {
  readonly model: MD2ModelData
  readonly clock: CrowdClock
  readonly capacity: number
  /** GPU bytes of the model's frames (shared) and per instance (matrix and the per-frame attributes). */
  readonly gpuBytes: { frames: number; shared: number; perInstance: number }
  /** Where the poses are blended, as asked (`MD2CrowdOptions.decode`). */
  readonly decode: 'vertex' | 'compute'
  /** This model's UFO:AI tags (`parseMD2Tags`), where followers given a `tag` (`followCrowd`) find it. */
  tags: MD2Tags | undefined
  private readonly frames: MD2GpuFrames
  private readonly instances: CrowdInstances
  /** The parts, as `followCrowd` reaches them (its link among them, once this crowd follows or leads). */
  private readonly parts: CrowdParts
  private readonly renderer: CrowdRenderer
  private readonly rows: InstanceRowWriter
  /** The queries' code, given (`MD2Crowd`'s) or loaded on demand (`loadCrowdQueries.ts`), and the queries made of it. */
  private readonly Queries: typeof CrowdQueries | undefined
  private queries: CrowdQueries | undefined
  private released = false
  /** The model's place in every instance (`setStanding`), and whether there is one (else instances are placed as given). */
  private readonly standing = new Matrix4()
  private standingSet = false

  /** `dress`: the looks and queries (`MD2Crowd`'s); without it, options asking for looks are refused. */
  constructor(model: MD2ModelData, options: MD2CrowdOptions, dress?: CrowdDress) {
    const limit = options.limit
    if (!dress) refuseLooksOptions(model, options)
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CROWD_SIZE)
      throw new MD2Error('BAD_ARGUMENT', `MD2Crowd: limit must be a whole number from 1 to ${MAX_CROWD_SIZE}, got ${String(limit)}`)
    const frames = acquireMD2GpuFrames(model, options.maxTextureSize ?? 4096)
    // The geometry is shared by every crowd of the model: the per-crowd attributes go on a copy.
    const geometry = frames.geometry.clone()
    const data = attachInstanceData(geometry, limit)
    const renderer = new CrowdRenderer({
      model,
      frames,
      rows: data.array as Float32Array,
      capacity: limit,
      decode: options.decode,
      pose: options.pose,
      maxTextureSize: options.maxTextureSize ?? 4096,
    })
    const materials = createCrowdMaterials(frames, options, renderer)
    super(geometry, materials.material, limit)
    this.customDepthMaterial = materials.depth
    this.customDistanceMaterial = materials.distance
    this.model = model
    this.frames = frames
    this.capacity = limit
    this.decode = renderer.decode
    const clock = (this.clock = new CrowdClock(limit, model.header.numFrames))
    const instances = (this.instances = new CrowdInstances(limit, frames.geometry.boundingSphere!.clone()))
    const looks = dress?.looks({ mesh: this, model, instances, clock, frames, renderer }, options)
    this.renderer = renderer
    const parts = { mesh: this, model, instances, clock, renderer, data }
    this.rows = new InstanceRowWriter({ ...parts, light: options.lighting === 'quake2' ? looks : undefined, looks })
    this.parts = { ...parts, rows: this.rows, quake2: options.lighting === 'quake2', looks, link: undefined }
    crowdParts.set(this, this.parts)
    this.Queries = dress?.queries
    this.instanceMatrix.setUsage(DynamicDrawUsage)
    this.onBeforeRender = (drawing) => {
      this.drawnBy(drawing)
      renderer.computed?.run(drawing, this.count)
      // A follower placed on its tag by the shader reads its leader's rows by instance: the vertex stage culls it.
      renderer.culled?.run(drawing, this, !this.drawsPosed() && !renderer.state.tag)
    }
    crowdShaderStates.set(this, renderer.state)
    for (const layer of looks ? [looks.shadow, looks.shell] : []) {
      crowdShaderStates.set(layer, renderer.state)
      layer.onBeforeRender = (drawing) => this.drawnBy(drawing)
      this.add(layer)
    }
    // Culled here, instance by instance, in `update`.
    this.frustumCulled = false
    this.count = 0
    this.gpuBytes = { frames: frames.frameBytes, shared: frames.sharedBytes, perInstance: (16 + INSTANCE_STRIDE) * 4 }
  }

  /** The blob shadows of the instances that have one (one draw; hidden until one does). */
  get shadow(): CrowdLayer {
    return this.dressed('shadow').shadow
  }

  /** The power-up shells of the instances that have one (one draw; hidden until one does). */
  get shell(): CrowdLayer {
    return this.dressed('shell').shell
  }

  /** Instances in use: `0 … size − 1` are drawn when in view. */
  get size(): number {
    return this.instances.size
  }

  set size(size: number) {
    this.instances.size = size
  }

  /** World height of the floor blob shadows lie on (`undefined`: under each instance's lowest point in any frame). */
  get shadowFloor(): number | undefined {
    return this.dressed('shadowFloor').shadowFloor
  }

  set shadowFloor(floor: number | undefined) {
    this.dressed('shadowFloor').shadowFloor = floor
  }

  /** This crowd's looks, or the error naming what brings them (a crowd made without them: `MD2CrowdBase`). */
  private dressed(member: string): CrowdLooks {
    return dressedLooks(this.parts.looks, this.model, member)
  }

  /**
   * Instance `i`'s power-up shells (`'red'`, `['red', 'blue']`, an RGB colour, as `<MD2Shell color>`),
   * none (`null`, `[]`), or the crowd's `shell` (`undefined`). A follower's instance also wears its
   * leader's instance's shell (Quake II draws a player's weapon in the player's shell), its own first.
   */
  setShell(i: number, given: CrowdShell | undefined): void {
    this.instances.checkIndex(i)
    this.dressed('setShell').setShell(i, given)
  }

  /**
   * Whether instance `i` casts Quake II's blob shadow (`"blob"`, as `<MD2BlobShadow>`) on the
   * floor at `shadowFloor`; `undefined`: as the crowd's `shadow`. A follower's instance also casts one
   * when its leader's instance does, on the leader's floor.
   */
  setShadow(i: number, given: 'blob' | false | null | undefined): void {
    this.instances.checkIndex(i)
    this.dressed('setShadow').setShadow(i, given)
  }

  /**
   * Places instance `i` (relative to the crowd): `{ position, rotation, scale }`, the rotation a yaw in
   * radians about +Y (default 0) or a quaternion, the scale one number (default 1) or one per axis.
   */
  setTransform(i: number, transform: CrowdTransform): void {
    this.instances.checkIndex(i)
    this.setMatrix(i, composeTransform(transform))
  }

  /** Places instance `i` by a matrix (relative to the crowd), times the model's place in it (`setStanding`). */
  setMatrix(i: number, matrix: Readonly<Matrix4>): void {
    this.instances.checkIndex(i)
    if (this.parts.link?.ledBy('setMatrix', 'place')) return
    this.instances.place(i, this.standingSet ? placedMatrix.multiplyMatrices(matrix, this.standing).elements : matrix.elements)
    this.clock.touch(i)
  }

  /**
   * Every instance's size and origin, as `<MD2Instances height origin>`: `height` world units tall standing (as
   * `getStandingBounds` measures it; an instance's scale multiplies it), and `origin` `"feet"` (its standing
   * frame's lowest point at the instance's position) or `"quake2"` (the file's origin); neither: the file's own.
   * Composed into each instance's matrix where it is placed (`setMatrix`, `setTransform`: the matrix times a
   * uniform scale then a lift along Y), so that what is drawn, culled, raycast, bounded, shadowed and followed
   * all see it; instances placed before keep their place until placed again.
   */
  setStanding(height: number | undefined, origin?: MD2Origin): void {
    this.standingSet = height !== undefined || origin !== undefined
    const fit = fitStanding(this.model, height, origin)
    this.standing.makeScale(fit.scale, fit.scale, fit.scale).setPosition(0, fit.lift, 0)
  }

  /** Stops drawing instance `i` until it is placed again. */
  hide(i: number): void {
    this.instances.checkIndex(i)
    if (this.parts.link?.ledBy('hide', 'place')) return
    this.instances.hidden[i] = 1
    this.clock.touch(i)
  }

  /** Plays an animation of the model (by name, index or range) on instance `i`, as `MD2AnimationController.play`. */
  play(i: number, animation: AnimationSelector, options: PlayOptions = NO_PLAY_OPTIONS): void {
    this.instances.checkIndex(i)
    if (this.parts.link?.ledBy('play', 'pose')) return
    const found = findAnimation(this.model, animation)
    if (!found) {
      warnOnce(
        `crowd:${this.model.name}:${String(animation)}`,
        `${this.model.name ?? 'model'}: no animation ${JSON.stringify(animation)}; instance left as it was`,
      )
      return
    }
    this.clock.play(i, found, options)
    this.instances.use(i)
  }

  /** Shows a still frame on instance `i` (fractional: between two keyframes). */
  showFrame(i: number, frame: number): void {
    this.instances.checkIndex(i)
    if (!this.parts.link?.ledBy('showFrame', 'pose')) this.clock.showFrame(i, frame)
  }

  /** Shows a pose computed elsewhere (an `MD2AnimationController` of its own) on instance `i`. */
  setPose(i: number, pose: Readonly<MD2Pose>): void {
    this.instances.checkIndex(i)
    if (!this.parts.link?.ledBy('setPose', 'pose')) this.clock.setPose(i, pose)
  }

  /** Quake II lighting for every instance: the shadelight (one level or RGB) and the entity flags. */
  setLighting(options: CrowdLighting): void {
    this.dressed('setLighting').setLighting(options)
  }

  /** Quake II lighting: the light at instance `i`'s feet, one level or `[r, g, b]` (0–1 and over). */
  setShadelight(i: number, level: number | readonly [number, number, number]): void {
    this.instances.checkIndex(i)
    this.dressed('setShadelight').setShadelight(i, level)
  }

  /**
   * Moves every instance's animation on by `seconds`, then writes the instances in `camera`'s view (all
   * of them without a camera) into the per-frame attributes: `count` becomes the number drawn. Then
   * updates the crowds that follow this one, in the same call. A follower's own `update` does nothing:
   * its leader's draws it.
   */
  update(seconds: number, camera?: Camera): void {
    const link = this.parts.link
    if (link?.leader) return
    this.clock.advance(seconds, this.instances.size)
    this.parts.looks?.advance(seconds)
    this.updateMatrixWorld()
    const planes = this.instances.viewFrom(camera, this.matrixWorld, this.renderer.drawLimit)
    if (!this.drawsPosed()) this.rows.writeStored(planes)
    else {
      this.instances.listed()
      writePosedRows(this.parts)
    }
    link?.updateFollowers(seconds, camera)
  }

  /**
   * Whether the crowd's rows are written as the poses of the instances in view, every frame (`writePosedRows`), not
   * as its stored rows (the shader works out the poses and culls; `update` writes only the rows of instances told
   * something): when it follows another, unless it is drawn from stored rows as its leader is (`CrowdLink.storedFromLeader`;
   * a leader stays on its stored rows, its instances in view listed and posed when a follower asks), blends its
   * poses in a compute pass, is posed on the CPU (`pose`: asked, or a renderer drawing in software), or holds more
   * instances than WebGPURenderer's WebGL2 backend draws: `posedOnItsOwn`. (Quake II light, shells and shadows are
   * not reasons: they are in the stored rows, the layers' slots copies of the crowd's.)
   */
  private drawsPosed(): boolean {
    const link = this.parts.link
    return Boolean(link?.leader && !link.storedFromLeader()) || posedOnItsOwn(this.parts)
  }

  /**
   * Instances drawn in view at the last `update` (placed, not hidden, their spheres in its camera's view): as
   * `count` where the poses are written per frame; drawn from stored rows, `count` is every instance in use
   * (the shader culls), and this lists the ones in view when asked.
   */
  get inView(): number {
    return this.instances.listed()
  }

  /** The crowd this one follows (`followCrowd`), if any. */
  get leader(): MD2CrowdBase | undefined {
    return this.parts.link?.leader?.owner
  }

  /** Meets the renderer about to draw the crowd (or a layer), before it builds anything for it. */
  private drawnBy(drawing: unknown): void {
    if (!this.renderer.meet(drawing)) return
    this.renderer.fit(this)
    const looks = this.parts.looks
    for (const layer of looks ? [looks.shell, looks.shadow] : []) if (layer.data) this.renderer.fit(layer)
    // The rows are written for the instances drawn: write them again, into new buffers or none.
    if (!this.drawsPosed()) {
      this.rows.restore()
      this.rows.writeStored('same')
    } else if (this.parts.link?.leader) this.parts.link.poseFromLeader()
    else {
      this.instances.listed()
      writePosedRows(this.parts)
    }
  }

  /**
   * What the crowd was last written as: `"stored"` rows (an instance's written only when it is told something; the
   * shader works out the poses and culls) or `"posed"` ones (the instances in view posed on the CPU every frame, for
   * the reasons `drawsPosed` lists).
   */
  get drawnFrom(): 'stored' | 'posed' {
    return this.rows.isStored ? 'stored' : 'posed'
  }

  /**
   * Who works each instance's pose out (`MD2CrowdOptions.pose`): `"shader"` from its stored row, `"cpu"` for the
   * instances in view every frame, `"auto"` the shader but on a renderer drawing in software. `drawnFrom` says which
   * it was last.
   */
  get pose(): 'auto' | 'shader' | 'cpu' {
    return this.renderer.pose
  }

  set pose(pose: 'auto' | 'shader' | 'cpu') {
    this.renderer.pose = pose
  }

  /** Where the instances were culled for the renderer that last drew the crowd: `"compute"` on real WebGPU, drawn from stored rows. */
  get culledBy(): 'vertex' | 'compute' {
    return this.renderer.culled?.listing ? 'compute' : 'vertex'
  }

  /** Where the poses were blended for the renderer that last drew the crowd: `"compute"` when the compute pass is in use. */
  get decodedBy(): 'vertex' | 'compute' {
    return this.renderer.decodedBy
  }

  /** Which instance the drawn slot `k` shows (slots are the instances in view, in order). */
  instanceAt(k: number): number {
    this.instances.listed()
    return this.instances.ids[k]!
  }

  /**
   * The box of instance `i`'s pose as drawn now, placed by its transform (in the crowd's space, as
   * `getMatrixAt`), written into `target`: for colliders and camera fitting. A query, not a per-frame
   * path: the pose is blended once into a scratch buffer and its vertices transformed.
   */
  getPoseBounds(i: number, target: Box3): Box3 {
    this.instances.checkIndex(i)
    // A follower's instance as its leader places it now (its arrays are written only for instances drawn).
    this.parts.link?.copyFrom(i)
    return this.queried('getPoseBounds', true)!.poseBounds(i, target)
  }

  /**
   * This crowd's queries, made the first time they are asked for, of the code given or loaded. Not loaded yet
   * (a crowd made without it): starts loading it, and warns once (`raycast`: no hits this time) or throws
   * (`mustAnswer`) an `MD2Error` saying so.
   */
  private queried(member: string, mustAnswer = false): CrowdQueries | undefined {
    if (this.queries) return this.queries
    const Queries = this.Queries ?? loadedCrowdQueries()
    return Queries ? (this.queries = new Queries(this.parts)) : queriesNotLoaded(this.model, member, mustAnswer)
  }

  /**
   * Hits against each drawn instance's animated triangles, nearest first by the caller's sort; `instanceId` is
   * the instance. An instance given its own hit object (`setHitObject`) is left to that object's raycast.
   */
  override raycast(raycaster: Raycaster, intersects: Intersection[]): void {
    // A follower leaves out the instances its first leader's hit objects report (its part of them with them).
    let first = this.leader
    while (first?.leader) first = first.leader
    const owners = (first ?? this).queried('raycast')
    if (owners) this.queried('raycast')?.raycast(raycaster, intersects, owners)
  }

  /**
   * Hits against instance `i` alone, if drawn (placed, not hidden, in view), and its followers' instance `i`
   * (`followCrowd`), reported as `object`'s with `instanceId` `i`: the raycast of an object standing for one
   * instance (as drei's `<Instance>`).
   */
  raycastInstance(i: number, raycaster: Raycaster, intersects: Intersection[], object: Object3D): void {
    this.queried('raycastInstance')?.raycastInstance(i, raycaster, intersects, object)
    // What its followers draw on it (a weapon, a head) is part of the instance.
    for (const follower of this.parts.link?.followers ?? []) follower.owner.raycastInstance(i, raycaster, intersects, object)
  }

  /**
   * Lets `object` report instance `i`'s hits (its raycast calls `raycastInstance`), and the raycasts of the
   * crowd and its followers leave it out, so that each hit is reported once; `null` gives it back to the crowd. As a child
   * of the crowd, the object is met by a recursive raycast of the crowd, and its events bubble to it.
   */
  setHitObject(i: number, object: Object3D | null): void {
    this.instances.checkIndex(i)
    // Giving an instance back to a crowd whose queries are not made yet changes nothing.
    if (object || this.queries) this.queried('setHitObject', true)!.setHitObject(i, object)
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

  /** Frees this crowd's GPU resources and its share of the model's (once: a second call does nothing). */
  override dispose(): void {
    // The shared frame data is counted: releasing it twice would free it under another crowd.
    if (!this.released) releaseMD2GpuFrames(this.model, this.frames)
    this.released = true
    // Followers stop drawing; a disposed follower leaves its leader's list.
    this.parts.link?.unlink()
    this.geometry.dispose()
    this.material.dispose()
    this.customDepthMaterial?.dispose()
    this.customDistanceMaterial?.dispose()
    this.parts.looks?.dispose()
    this.renderer.computed?.dispose()
    this.renderer.culled?.dispose()
    this.renderer.dispose()
    this.queries?.dispose()
    super.dispose()
  }
}

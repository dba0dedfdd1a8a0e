import { InstancedInterleavedBuffer, InterleavedBufferAttribute, Matrix4, type Camera } from 'three'
import { CROWD_POSE_STRIDE, readCrowdPose, writeCrowdPose, type CrowdClock } from '../../core/animation/CrowdClock.js'
import { clampPoseFrames, createPose, type MD2Pose } from '../../core/animation/pose.js'
import { MD2Error } from '../../core/MD2Error.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { findTag, type MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { tagTransform } from '../../core/tags/tagTransform.js'
import { warnOnce } from '../../core/warnOnce.js'
import type { CrowdTagDecode } from '../materials/gpuDecodeGLSL.js'
import { tagDecode } from '../materials/tagDecodeGLSL.js'
import { setTagMatrix } from '../mesh/tagMatrix.js'
import { uploadFirst } from './gpu/instanceRows.js'
import { MAX_TAG_FRAMES, createTagFrames } from './gpu/tagFrames.js'
import { posedOnItsOwn, type CrowdParts } from './crowdParts.js'
import type { MD2CrowdBase } from './MD2CrowdBase.js'
import { writePosedRows } from './posedRows.js'

/** How a follower crowd copies its leader (`followCrowd`'s options). */
export interface CrowdFollowOptions {
  /**
   * A tag of the leader's (`tag_rweapon`, or its index in the tag file): each instance is placed at
   * it, for the leader instance's pose. Without one, instances take the leader's transform as is.
   */
  tag?: string | number
  /** The tags to read `tag` from (`parseMD2Tags`); default the leader's `tags`. */
  tags?: MD2Tags
  /**
   * Show the leader's frames (default `true`), as `<MD2Model sync>`: frames this model lacks show its
   * last frame (warned once). `false`: each instance plays its own animation (`play`, `showFrame`).
   */
  sync?: boolean
}

/** What a follower keeps about its leader: resolved once in `follow`, read every frame. */
interface CrowdFollowing {
  sync: boolean
  tags: MD2Tags | undefined
  /** The tag's index, or −1 for none (the leader's transform as is). */
  tag: number
  /** Scratch for the tag's placement and the synced pose: nothing allocated per frame. */
  pose: MD2Pose
  transform: Float32Array
  matrix: Matrix4
}

/**
 * A crowd's place in a chain of followers (`followCrowd`): the crowd it follows and how, and the
 * crowds following it. A follower's instances are its leader's: each frame it copies the leader's drawn
 * instances, their transforms (placed on a tag, when given) and, synced, their poses; it wears their
 * shells and shadows (`CrowdLooks.leader`). `owner` is the crowd, for its leader to update it.
 */
export class CrowdLink {
  leader: CrowdLink | undefined
  private following: CrowdFollowing | undefined
  /** The crowds following this one, updated by its `update`, in the order they began following. */
  readonly followers: CrowdLink[] = []
  /** The leader `follow` added this crowd to (removed from it again when it stops following). */
  private addedTo: MD2CrowdBase | undefined
  /** Whether the last update copied the leader's stored rows (the next one then copies only those it wrote). */
  private copied = false
  /** The tag placed by the shader (`placeTagOnGpu`), while it is: its texture, the leader's rows beside this crowd's. */
  private onGpu: TagOnGpu | undefined

  constructor(
    readonly owner: MD2CrowdBase,
    private readonly crowd: CrowdParts,
  ) {}

  /**
   * Follows `leader` (`null`: none): refused with an `MD2Error`, changing nothing, when that would make
   * a loop, or when the leader holds more instances than this crowd. A crowd with no parent is added
   * to its leader, and removed from it when it stops following.
   */
  follow(leader: CrowdLink | null, options: CrowdFollowOptions): void {
    const name = (link: CrowdLink) => link.crowd.model.name ?? 'a crowd'
    if (leader) {
      for (let above: CrowdLink | undefined = leader; above; above = above.leader) {
        if (above === this)
          throw new MD2Error(
            'BAD_ARGUMENT',
            `followCrowd: ${name(this)} cannot follow ${leader === this ? 'itself' : 'a crowd that follows it'}`,
          )
      }
      const most = leader.crowd.instances.capacity
      const limit = this.crowd.instances.capacity
      if (most > limit)
        throw new MD2Error(
          'BAD_ARGUMENT',
          `followCrowd: the leader (${name(leader)}) holds ${most} instances and this crowd (${name(this)}) ${limit}; give it a limit of at least ${most}`,
        )
    }
    const following = leader ? resolveFollowing(leader.crowd.model, leader.owner.tags, options) : undefined
    this.placeTagOnGpu(false)
    const before = this.leader
    if (before) before.followers.splice(before.followers.indexOf(this), 1)
    this.leader = leader ?? undefined
    this.following = following
    this.copied = false
    if (this.crowd.looks) this.crowd.looks.leader = leader?.crowd.looks
    leader?.followers.push(this)
    const owner = this.owner
    if (this.addedTo && owner.parent === this.addedTo) this.addedTo.remove(owner)
    this.addedTo = undefined
    // Nothing drawn until the leader's next update.
    this.crowd.instances.drawn = 0
    writePosedRows(this.crowd)
    if (leader && !owner.parent) {
      leader.owner.add(owner)
      this.addedTo = leader.owner
    }
  }

  /** Leaves the chain: followers stop following this crowd, and it stops following its leader. */
  unlink(): void {
    for (const follower of [...this.followers]) follower.follow(null, {})
    if (this.leader) this.follow(null, {})
  }

  /** Whether `what` of this crowd comes from its leader, warning once if so (the call `method` is then ignored). */
  ledBy(method: string, what: 'place' | 'pose'): boolean {
    const leader = this.leader
    if (!leader || (what === 'pose' && !this.following!.sync)) return false
    warnOnce(
      `crowd-follower:${this.crowd.model.name}:${method}`,
      `MD2Crowd.${method}: ${this.crowd.model.name ?? 'this crowd'} follows ${leader.crowd.model.name ?? 'another crowd'}, which ${what === 'place' ? 'places and hides' : 'poses'} its instances; call it on the leader (ignored here)`,
    )
    return true
  }

  /** Updates the crowds following this one, after it in the same frame, and theirs after them. */
  updateFollowers(seconds: number, camera: Camera | undefined): void {
    for (let f = 0; f < this.followers.length; f++) this.followers[f]!.updateFromLeader(seconds, camera)
  }

  /**
   * Whether this follower is drawn from stored rows while its leader is: it has no reason of its own to be posed
   * (`posedOnItsOwn`), and either shows its own animation (unsynced: its rows are its own, its placements copied
   * from its leader's instances) or its leader's frames, having every one of them and no listeners of its own (its
   * rows copies of its leader's). On a tag, the shader places it (`placeTagOnGpu`), unless it wears shells or
   * shadows (their layers' slots hold no leader rows) or the leader has more frames than a tag texture holds. Then
   * only the rows its leader wrote (and its own told something) are written, and its shader culls as its leader's.
   */
  storedFromLeader(): boolean {
    const leader = this.leader?.crowd
    const following = this.following
    const crowd = this.crowd
    if (!leader || !following || !leader.rows.isStored || posedOnItsOwn(crowd)) return false
    if (following.sync && (crowd.model.header.numFrames < leader.model.header.numFrames || crowd.clock.events)) return false
    return following.tag < 0 || (!crowd.looks?.layered && leader.model.header.numFrames <= MAX_TAG_FRAMES)
  }

  /**
   * A follower's rows posed for its leader's drawn instances: at its update, and when a renderer meets it
   * (`MD2CrowdBase.drawnBy`), not for a view of its own (its own sphere could list another set).
   */
  poseFromLeader(): void {
    this.copied = false
    this.copyDrawn()
    writePosedRows(this.crowd)
  }

  /** A follower's update: its leader's stored rows copied, or its leader's drawn instances placed and (synced) posed from it. */
  private updateFromLeader(seconds: number, camera: Camera | undefined): void {
    const { mesh, clock, instances, looks, rows, renderer } = this.crowd
    looks?.advance(seconds)
    mesh.updateMatrixWorld()
    looks?.openLikeLeader()
    const stored = this.storedFromLeader()
    this.placeTagOnGpu(stored && this.following!.tag >= 0)
    if (stored) {
      this.copyStored()
      if (!this.following!.sync) clock.advance(seconds, instances.size)
      rows.writeStored(instances.viewFrom(camera, mesh.matrixWorld, renderer.drawLimit))
      if (this.onGpu) this.writeTagRows(this.onGpu)
    } else {
      // An unsynced follower's own clock: the copy of its leader's instances does not read it.
      if (!this.following!.sync) clock.advance(seconds, instances.size)
      this.poseFromLeader()
    }
    this.updateFollowers(seconds, camera)
  }

  /** The leader's stored rows (synced; else its placements) not copied yet: every one the first time, then those it wrote this frame. */
  private copyStored(): void {
    const leader = this.leader!.crowd
    const { clock, instances } = this.crowd
    if (this.following!.sync) clock.now = leader.clock.now
    instances.size = leader.instances.size
    if (!this.copied) {
      this.copied = true
      for (let i = 0; i < instances.size; i++) this.copyStoredRow(i)
      return
    }
    const changed = leader.clock.changed
    for (let k = 0; k < leader.rows.storedChanged; k++) this.copyStoredRow(changed[k]!)
  }

  /**
   * Instance `i` of the leader, as stored: its row (synced; else this crowd's own is written again), its transform,
   * hidden or not, and the radius this crowd culls it by at that scale (its sphere's, grown by the tag's reach).
   */
  private copyStoredRow(i: number): void {
    const leader = this.leader!.crowd
    const { clock, instances } = this.crowd
    if (this.following!.sync) copyClockRow(clock, leader.clock, i)
    else clock.touch(i)
    const from = leader.instances
    for (let e = 0; e < 16; e++) instances.transforms[i * 16 + e] = from.transforms[i * 16 + e]!
    instances.hidden[i] = from.hidden[i]!
    const radius = from.sphere.radius
    const own = this.onGpu?.radius ?? instances.sphere.radius
    instances.radii[i] = radius > 0 ? (from.radii[i]! / radius) * own : own
  }

  /**
   * Places this follower on its tag in the shader (`on`), or not (the instances' matrices placed on it here, per
   * instance drawn, or no tag): the tag's frames as a texture, the leader's rows beside this crowd's (`md2Tag…`),
   * the culling sphere grown by the tag's reach (centred where the leader's instance is: grown by twice the sphere's
   * centre's distance too), and the materials built again for the other decode. Every row is written again after.
   */
  private placeTagOnGpu(on: boolean): void {
    if (on === (this.onGpu !== undefined)) return
    const { mesh, renderer, instances, clock } = this.crowd
    const state = renderer.state
    const sphere = state.uniforms.md2Sphere.value
    const geometry = mesh.geometry
    if (this.onGpu) {
      this.onGpu.decode.texture.dispose()
      for (const name of TAG_ATTRIBUTES) geometry.deleteAttribute(name)
      this.onGpu = undefined
      state.tag = undefined
      sphere.w = instances.sphere.radius
    } else {
      const { tags, tag } = this.following!
      const { texture, reach } = createTagFrames(tags!, tag, this.leader!.crowd.model.header.numFrames)
      const rows = new InstancedInterleavedBuffer(new Float32Array(instances.capacity * TAG_ROW), TAG_ROW)
      TAG_ATTRIBUTES.forEach((name, k) => geometry.setAttribute(name, new InterleavedBufferAttribute(rows, 4, k * 4)))
      // The leader's own time uniform: nothing to copy each frame.
      const decode = tagDecode(texture, this.leader!.crowd.renderer.state.uniforms.md2Time)
      const radius = instances.sphere.radius + 2 * instances.sphere.center.length() + reach
      this.onGpu = { decode, rows, radius, range: { start: 0, count: 0 }, ranges: [] }
      state.tag = decode
      sphere.w = radius
    }
    for (const material of [mesh.material, mesh.customDepthMaterial, mesh.customDistanceMaterial])
      if (material && !Array.isArray(material)) material.needsUpdate = true
    this.copied = false
    clock.changeAll(instances.size)
  }

  /**
   * The leader's rows of the instances this crowd's last `writeStored` wrote (its leader's changed ones among them),
   * beside its own, for the shader to pose the tag by (at the leader's time, its uniform); flagged for upload as the
   * rows are.
   */
  private writeTagRows(onGpu: TagOnGpu): void {
    const leader = this.leader!.crowd
    const { clock, rows, instances, data } = this.crowd
    const tagRows = onGpu.rows
    tagRows.setUsage(data.usage)
    const array = tagRows.array as Float32Array
    const ranges = tagRows.updateRanges
    const count = rows.storedChanged
    const changed = clock.changed
    // As the rows' writer: many, or ranges of a frame not uploaded yet, go up at once; a few, one range each.
    const whole = count > instances.size >> 3 || ranges.length > 0
    for (let k = 0; k < count; k++) {
      const i = changed[k]!
      if (i >= instances.capacity) continue
      leader.clock.writeRow(i, array, i * TAG_ROW)
      if (whole) continue
      while (onGpu.ranges.length <= k) onGpu.ranges.push({ start: 0, count: 0 })
      const range = onGpu.ranges[k]!
      range.start = i * TAG_ROW
      range.count = TAG_ROW
      ranges.push(range)
    }
    if (whole) uploadFirst(tagRows, onGpu.range, instances.size)
    else if (count > 0) tagRows.needsUpdate = true
  }

  /**
   * Multiplies `matrix` (instance `i`'s, as stored: its leader instance's) by the tag's placement for the leader
   * instance's pose, where the shader places this crowd on its tag: what the queries (raycasts, pose bounds) see is
   * what is drawn. Nothing otherwise (the matrix is placed already).
   */
  tagOnto(i: number, matrix: Matrix4): void {
    const leader = this.leader?.crowd
    const following = this.following
    if (!this.onGpu || !leader || !following?.tags) return
    leader.clock.pose(i)
    const pose = readCrowdPose(leader.clock.poses, i, following.pose)
    matrix.multiply(setTagMatrix(following.matrix, tagTransform(following.tags, following.tag, pose, following.transform)))
  }

  /** A follower's drawn instances: its leader's, in the leader's order, each placed (and, synced, posed) from it. */
  private copyDrawn(): void {
    const from = this.leader!.crowd.instances
    const to = this.crowd.instances
    // A leader drawn from stored rows lists its instances in view only when asked.
    const drawn = from.listed()
    to.size = from.size
    to.drawn = drawn
    for (let k = 0; k < drawn; k++) {
      const i = from.ids[k]!
      to.ids[k] = i
      this.copyFrom(i)
    }
  }

  /** A follower's instance `i` as its leader places it now (and, synced, poses it); nothing without a leader. */
  copyFrom(i: number): void {
    const leader = this.leader?.crowd
    const following = this.following
    if (!leader || !following) return
    const { clock, instances, model } = this.crowd
    leader.clock.pose(i)
    // Shown as a pose from outside: the follower's own clock then leaves it as copied.
    if (following.sync) {
      writeCrowdPose(clock.poses, i, clampPoseFrames(readCrowdPose(leader.clock.poses, i, following.pose), model))
      clock.posedOutside(i)
    }
    // The shader places it on the tag: its matrix is its leader instance's (`tagOnto` gives the queries the rest).
    placeOnTag(instances.transforms, leader.instances.transforms, leader.clock.poses, i, following, this.onGpu !== undefined)
  }
}

/** Floats per leader row kept beside a follower's: `CLOCK`, `RANGE` and `FADE`, as `CrowdClock.writeRow` writes them. */
const TAG_ROW = 12
/** The leader rows' attributes, in that order (the GLSL decode's names; the TSL one reads the same). */
const TAG_ATTRIBUTES = ['md2TagClock', 'md2TagRange', 'md2TagFade'] as const

/** A follower placed on its tag by the shader: its decode, the leader's rows kept beside its own, its culling radius. */
interface TagOnGpu {
  decode: CrowdTagDecode
  rows: InstancedInterleavedBuffer
  /** The follower's culling sphere's radius (unscaled): its own, grown by the tag's reach. */
  radius: number
  /** The update range for an upload of the first rows, and one per row written (reused every frame). */
  range: { start: number; count: number }
  ranges: { start: number; count: number }[]
}

/**
 * Checks a follow request and resolves its tag: an unknown tag name warns once, listing the names,
 * and places the instances at the leader's origin (as `<MD2Attach>` does); a tag with no tags to read
 * it from is an `MD2Error`.
 */
function resolveFollowing(leaderModel: MD2ModelData, leaderTags: MD2Tags | undefined, options: CrowdFollowOptions): CrowdFollowing {
  const tags = options.tags ?? leaderTags
  const { tag } = options
  let index = -1
  if (tag !== undefined) {
    if (!tags)
      throw new MD2Error(
        'BAD_ARGUMENT',
        `followCrowd: tag ${JSON.stringify(tag)} needs tags (the leader's \`tags\`, or the \`tags\` option)`,
      )
    if (tags.numFrames === 0) throw new MD2Error('BAD_INDEX', `${tags.name ?? 'the tag file'} has no frames`, { section: 'tags' })
    index = typeof tag === 'number' ? (Number.isInteger(tag) && tag >= 0 && tag < tags.names.length ? tag : -1) : findTag(tags, tag)
    if (index < 0) {
      warnOnce(
        `crowd-follow:${tags.name}:${String(tag)}`,
        `followCrowd: ${tags.name ?? 'the tags'} have no tag ${JSON.stringify(tag)} (they have ${tags.names.join(', ')}); instances stay at the leader's origin`,
      )
    } else if (tags.numFrames !== leaderModel.header.numFrames) {
      warnOnce(
        `${leaderModel.name}:tags:${tags.name}`,
        `${tags.name ?? 'tags'} has ${tags.numFrames} frames and ${leaderModel.name ?? 'the model'} ${leaderModel.header.numFrames}; frames past the tags' last use its last`,
      )
    }
  }
  return {
    sync: options.sync ?? true,
    tags,
    tag: index,
    pose: createPose(0),
    transform: new Float32Array(12),
    matrix: new Matrix4(),
  }
}

/**
 * Writes instance `i`'s matrix into `target`: the leader instance's matrix (`source`, 16 floats per
 * instance) times the tag's placement for the leader's pose (`poses`), as `<MD2Attach>` composes them.
 */
function placeOnTag(
  target: Float32Array,
  source: Float32Array,
  poses: Float64Array,
  i: number,
  following: CrowdFollowing,
  tagOnGpu: boolean,
): void {
  const o = i * 16
  if (following.tag < 0 || !following.tags || tagOnGpu) {
    for (let e = 0; e < 16; e++) target[o + e] = source[o + e]!
    return
  }
  const pose = readCrowdPose(poses, i, following.pose)
  const b = setTagMatrix(following.matrix, tagTransform(following.tags, following.tag, pose, following.transform)).elements
  // Column-major product source × tag, straight into the follower's array.
  for (let col = 0; col < 4; col++) {
    const b0 = b[col * 4]!,
      b1 = b[col * 4 + 1]!,
      b2 = b[col * 4 + 2]!,
      b3 = b[col * 4 + 3]!
    for (let row = 0; row < 4; row++) {
      target[o + col * 4 + row] = source[o + row]! * b0 + source[o + 4 + row]! * b1 + source[o + 8 + row]! * b2 + source[o + 12 + row]! * b3
    }
  }
}

/**
 * Instance `i` as `from` stores it, into `to` (a synced follower's copy of its leader's row; it has no listeners),
 * marked changed. `to`'s time must be `from`'s (`now`).
 */
function copyClockRow(to: CrowdClock, from: CrowdClock, i: number): void {
  to.start[i] = from.start[i]!
  to.end[i] = from.end[i]!
  to.fps[i] = from.fps[i]!
  to.speed[i] = from.speed[i]!
  to.anchorPosition[i] = from.anchorPosition[i]!
  to.anchorTime[i] = from.anchorTime[i]!
  to.held[i] = from.held[i]!
  to.fadeStart[i] = from.fadeStart[i]!
  to.fadeDuration[i] = from.fadeDuration[i]!
  to.flags[i] = from.flags[i]!
  const o = i * CROWD_POSE_STRIDE
  for (let e = 0; e < CROWD_POSE_STRIDE; e++) to.poses[o + e] = from.poses[o + e]!
  to.touch(i)
}

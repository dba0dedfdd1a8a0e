import { Matrix4 } from 'three'
import { readCrowdPose, writeCrowdPose } from '../../core/animation/CrowdClock.js'
import { clampPoseFrames, createPose, type MD2Pose } from '../../core/animation/pose.js'
import { MD2Error } from '../../core/MD2Error.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { findTag, type MD2Tags } from '../../core/tags/parseMD2Tags.js'
import { tagTransform } from '../../core/tags/tagTransform.js'
import { warnOnce } from '../../core/warnOnce.js'
import { setTagMatrix } from '../mesh/tagMatrix.js'

/** How a follower crowd copies its leader (`MD2Crowd.follow`'s options). */
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
export interface CrowdFollowing {
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
 * Checks a follow request and resolves its tag: an unknown tag name warns once, listing the names,
 * and places the instances at the leader's origin (as `<MD2Attach>` does); a tag with no tags to read
 * it from is an `MD2Error`.
 */
export function resolveFollowing(leaderModel: MD2ModelData, leaderTags: MD2Tags | undefined, options: CrowdFollowOptions): CrowdFollowing {
  const tags = options.tags ?? leaderTags
  const { tag } = options
  let index = -1
  if (tag !== undefined) {
    if (!tags)
      throw new MD2Error(
        'BAD_ARGUMENT',
        `MD2Crowd.follow: tag ${JSON.stringify(tag)} needs tags (the leader's \`tags\`, or the \`tags\` option)`,
      )
    if (tags.numFrames === 0) throw new MD2Error('BAD_INDEX', `${tags.name ?? 'the tag file'} has no frames`, { section: 'tags' })
    index = typeof tag === 'number' ? (Number.isInteger(tag) && tag >= 0 && tag < tags.names.length ? tag : -1) : findTag(tags, tag)
    if (index < 0) {
      warnOnce(
        `crowd-follow:${tags.name}:${String(tag)}`,
        `MD2Crowd.follow: ${tags.name ?? 'the tags'} have no tag ${JSON.stringify(tag)} (they have ${tags.names.join(', ')}); instances stay at the leader's origin`,
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
 * Copies instance `i`'s pose from `source` into `target` (crowd pose arrays), clamping frames to
 * `model`'s as `<MD2Model sync>` does (`clampPoseFrames`), through `scratch`.
 */
export function copyClampedCrowdPose(target: Float64Array, source: Float64Array, i: number, model: MD2ModelData, scratch: MD2Pose): void {
  writeCrowdPose(target, i, clampPoseFrames(readCrowdPose(source, i, scratch), model))
}

/**
 * Writes instance `i`'s matrix into `target`: the leader instance's matrix (`source`, 16 floats per
 * instance) times the tag's placement for the leader's pose (`poses`), as `<MD2Attach>` composes them.
 */
export function placeOnTag(target: Float32Array, source: Float32Array, poses: Float64Array, i: number, following: CrowdFollowing): void {
  const o = i * 16
  if (following.tag < 0 || !following.tags) {
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

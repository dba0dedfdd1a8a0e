import { frameBounds } from '../../core/format/decodeFrame.js'
import type { MD2ModelData } from '../../core/format/types.js'
import type { MD2Pose } from '../../core/animation/pose.js'
import { getStandingBounds, type MD2StandingBounds } from '../../core/format/standingBounds.js'

/** Per model, each keyframe's Y-up box (min x, y, z then max x, y, z), six floats a frame. */
const keyframeBoxes = new WeakMap<MD2ModelData, Float32Array>()

function boxesOf(model: MD2ModelData): Float32Array {
  let boxes = keyframeBoxes.get(model)
  if (boxes === undefined) {
    boxes = new Float32Array(model.header.numFrames * 6)
    for (let f = 0; f < model.header.numFrames; f++) {
      const { min, max } = frameBounds(model, f)
      // Y-up (X, Y, Z) is Quake (y, z, x): yUpAxes.ts.
      boxes.set([min[1], min[2], min[0], max[1], max[2], max[0]], f * 6)
    }
    keyframeBoxes.set(model, boxes)
  }
  return boxes
}

/** Per model, its standing frame's box (`getStandingBounds`), found once. */
const standingBoxes = new WeakMap<MD2ModelData, MD2StandingBounds>()

/**
 * Turns `box`, a pose's, into an upright capsule's for a character controller: on the model's axis, its feet and
 * width those of the model standing (`getStandingBounds`), its top the pose's. A controller then meets a steady
 * width and floor (a stride or a wider pose would push the capsule into what it touches, and through it on the
 * next move) while crouching or lying lowers the top.
 */
export function uprightBox(model: MD2ModelData, box: Float64Array): Float64Array {
  let standing = standingBoxes.get(model)
  if (standing === undefined) standingBoxes.set(model, (standing = getStandingBounds(model)))
  const { min, max } = standing
  const radius = (max[0] - min[0] + max[2] - min[2]) / 4
  box[0] = box[2] = -radius
  box[3] = box[5] = radius
  box[1] = min[1]
  return box
}

/**
 * The box of what `pose` shows, in the model's Y-up space, written into `out` (min x, y, z then max x, y, z):
 * its keyframes' boxes blended as the pose blends them. A blended vertex lies between its two keyframe
 * positions, so this box holds the exact one (equal to it on a keyframe, a little larger between two):
 * a collider that never cuts into the character, found in a few multiplications a frame (the keyframes'
 * boxes are found once per model), where the exact box reads every vertex.
 */
export function blendedKeyframeBox(model: MD2ModelData, pose: Readonly<MD2Pose>, out: Float64Array): Float64Array {
  const boxes = boxesOf(model)
  const fade = pose.fadeWeight
  for (let k = 0; k < 6; k++) {
    let value = boxes[pose.from * 6 + k]! * (1 - pose.t) + boxes[pose.to * 6 + k]! * pose.t
    if (fade > 0) {
      const outgoing = boxes[pose.fadeFrom * 6 + k]! * (1 - pose.fadeT) + boxes[pose.fadeTo * 6 + k]! * pose.fadeT
      value = value * (1 - fade) + outgoing * fade
    }
    out[k] = value
  }
  return out
}

import type { Object3D } from 'three'
import type { CrowdClock } from '../../core/animation/CrowdClock.js'
import type { MD2ModelData } from '../../core/format/types.js'
import type { CrowdInstances } from './CrowdInstances.js'
import type { CrowdLink } from './CrowdLink.js'
import type { CrowdLooks } from './CrowdLooks.js'
import type { InstanceRowWriter } from './instanceRows.js'
import type { MD2Crowd } from './MD2Crowd.js'

/** A crowd's parts that following reads and changes. */
export interface CrowdParts {
  /** The crowd: its world matrix. */
  mesh: Object3D
  model: MD2ModelData
  instances: CrowdInstances
  clock: CrowdClock
  looks: CrowdLooks
  rows: InstanceRowWriter
  /** Its place in a chain of followers, made by `followCrowd` the first time it follows or leads. */
  link: CrowdLink | undefined
}

/**
 * Each crowd's parts, where `followCrowd` finds them: the follower chain lives in its own module, so
 * that a crowd that never follows or leads does not ship it.
 */
export const crowdParts = new WeakMap<MD2Crowd, CrowdParts>()

import { MD2Error } from '../../core/MD2Error.js'
import { CrowdLink, type CrowdFollowOptions } from './CrowdLink.js'
import { crowdParts } from './crowdParts.js'
import type { MD2Crowd } from './MD2Crowd.js'

export type { CrowdFollowOptions } from './CrowdLink.js'

/**
 * Makes `follower` draw its model on `leader`'s instances (a weapon in every hand, a head on every
 * neck), in one more draw: its instance `i` copies the leader's instance `i` on every leader `update`
 * (which updates it, after itself), with its transform (times `tag`'s placement for the leader's pose,
 * when given), hidden state and culling (drawn exactly when the leader's instance is, never culled
 * again), and, with `sync` (the default), the leader's frames, clamped to this model's as
 * `<MD2Model sync>` does. The instances are in the leader's space: a crowd with no parent is added to
 * the leader. Its own look (skin, lighting, shadelight, shell) stays its own. `leader` `null` stops.
 * Refused with an `MD2Error`: following itself or its own follower, a leader of a larger limit, a tag
 * without tags; an unknown tag warns once and places the instances at the leader's origin.
 */
export function followCrowd(follower: MD2Crowd, leader: MD2Crowd | null, options: CrowdFollowOptions = {}): void {
  const link = linkOf(follower, 'follower')
  link.follow(leader && linkOf(leader, 'leader'), options)
}

function linkOf(crowd: MD2Crowd, role: string): CrowdLink {
  const parts = crowdParts.get(crowd)
  if (!parts) throw new MD2Error('BAD_ARGUMENT', `followCrowd: the ${role} is not an MD2Crowd (got ${String(crowd)})`)
  return (parts.link ??= new CrowdLink(crowd, parts))
}

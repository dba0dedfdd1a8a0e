import type { MD2Crowd } from 'react-three-md2'
import { Box3, Raycaster, Vector2, Vector3, type Camera } from 'three'
import { cameraPosition, SHOULDER } from './camera'
import { isDown, type World } from './world'

const raycaster = new Raycaster()
const CROSSHAIR = new Vector2(0, 0)
/** The variants are taken in turn, as Quake II's player rules take them. */
const PAINS = ['pain1', 'pain2', 'pain3'] as const
const DEATHS = ['death1', 'death2', 'death3'] as const

/**
 * A shot through the crosshair: the crowd's raycast tests each drawn enemy's animated triangles and
 * reports the `instanceId` hit. The nearest enemy takes it, dead or not: a corpse in the way stops
 * the shot, and is not killed again. Returns the enemy hit, or null.
 */
export function shoot(world: World, crowd: MD2Crowd, camera: Camera): number | null {
  world.shots++
  raycaster.setFromCamera(CROSSHAIR, camera)
  const i = raycaster.intersectObject(crowd, false)[0]?.instanceId ?? null
  world.lastHit = i
  if (i !== null) hurt(world, crowd, i)
  return i
}

/** One shot's damage to enemy `i`: a pain animation, or on the last of its health the death, played once. */
export function hurt(world: World, crowd: MD2Crowd, i: number): void {
  const enemy = world.enemies[i]
  if (!enemy || isDown(enemy)) return
  enemy.health -= 1
  if (enemy.health > 0) {
    enemy.state = 'pain'
    crowd.play(i, PAINS[enemy.pains++ % PAINS.length]!, { loop: false })
  } else {
    enemy.state = 'dying'
    enemy.deaths++
    world.kills++
    // Played once: the crowd holds the last frame, and `onEnd` marks the enemy dead.
    crowd.play(i, DEATHS[i % DEATHS.length]!, { loop: false })
  }
}

/** T: aims at the enemy still standing nearest the player (with a fixed pitch, aiming by keys alone is coarse). */
export function aimAtNearest(world: World, crowd: MD2Crowd): void {
  let nearest = -1
  let best = Infinity
  world.enemies.forEach((enemy, i) => {
    const d = enemy.position.distanceToSquared(world.player.position)
    if (!isDown(enemy) && d < best) [nearest, best] = [i, d]
  })
  if (nearest >= 0) aimAt(world, crowd, nearest)
}

const box = new Box3()
const centre = new Vector3()
const eye = new Vector3()

/**
 * Turns the player and pitches the aim so the crosshair lies on enemy `i`'s middle (the centre of its
 * pose box). The camera looks along the player's yaw from over its shoulder, so the yaw that puts the
 * enemy on the camera's line is the bearing to it turned by the shoulder's angle at that distance; the
 * pitch is then taken from the camera. (The crowd sits at the origin, unrotated: its space is the world's.)
 */
export function aimAt(world: World, crowd: MD2Crowd, i: number): void {
  crowd.getPoseBounds(i, box).getCenter(centre)
  const player = world.player
  const dx = centre.x - player.position.x
  const dz = centre.z - player.position.z
  player.yaw = Math.atan2(dx, dz) + Math.asin(Math.min(1, SHOULDER / Math.max(Math.hypot(dx, dz), 1e-6)))
  cameraPosition(player.position, player.yaw, eye)
  player.pitch = Math.atan2(centre.y - eye.y, Math.hypot(centre.x - eye.x, centre.z - eye.z))
}

import type { MD2Crowd } from 'react-three-md2'
import { Box3, type Mesh } from 'three'
import { isDown, type World } from './world'

/**
 * Colliders from the poses drawn, as plain boxes: the player's mesh keeps the box of its pose
 * (`<MD2PoseBounds>` in its `<MD2Model>`), and `crowd.getPoseBounds(i, box)` gives an enemy's. A crouching
 * player's box is lower, a dying enemy's sinks with it. Enemies down on the floor no longer block:
 * they are walked over.
 */

/** `getPoseBounds` blends the enemy's pose to answer (a query, not for 200 enemies a frame): only those this near are asked. */
const NEAR = 160
const enemyBox = new Box3()

/** The player's collider: its mesh's pose box, placed in the world. */
export function updatePlayerBox(world: World, mesh: Mesh): void {
  const box = mesh.geometry.boundingBox
  if (!box) return
  mesh.updateWorldMatrix(true, false)
  world.player.box.copy(box).applyMatrix4(mesh.matrixWorld)
}

/** The standing enemy whose pose box the player's overlaps, or -1 (the crowd sits at the origin: its space is the world's). */
export function touchedEnemy(world: World, crowd: MD2Crowd): number {
  const { position, box } = world.player
  for (let i = 0; i < world.enemies.length; i++) {
    const enemy = world.enemies[i]!
    if (isDown(enemy)) continue
    const dx = enemy.position.x - position.x
    const dz = enemy.position.z - position.z
    if (dx * dx + dz * dz > NEAR * NEAR) continue
    if (crowd.getPoseBounds(i, enemyBox).intersectsBox(box)) return i
  }
  return -1
}

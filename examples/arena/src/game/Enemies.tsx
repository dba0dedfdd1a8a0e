import { useFrame } from '@react-three/fiber'
import { useEffect } from 'react'
import type { MD2Crowd } from 'react-three-md2'
import { RUNNER_SPEED, type Enemy, type World } from './world'

/** The death animations' frames (Quake II's player model): `onFrame` inside them is the death being played. */
const DEATH_FIRST = 178
const DEATH_LAST = 197

/** What an enemy does when nothing is happening to it, faded into over this long (seconds). */
const BACK_TO_IDLE_FADE = 0.2

/**
 * The 200 enemies: one `MD2Crowd` (one draw call, animated on the GPU), driven imperatively. Even ones
 * stand on the inner ring turned towards the player; odd ones run round the outer ring. Hits are
 * dealt in combat.ts; the crowd's events bring a hurt enemy back to what it was doing (`onEnd` of
 * its pain) and mark a dying one dead (`onEnd` of its death, which holds its last frame).
 */
export function Enemies({ world, crowd }: { world: World; crowd: MD2Crowd }) {
  useEffect(() => {
    world.enemies.forEach((enemy, i) => {
      place(crowd, enemy, i, world)
      // Slightly different rates, so 200 enemies do not move as one.
      crowd.play(i, enemy.idle, { speed: 0.85 + ((i * 37) % 30) / 100 })
    })
    crowd.events = {
      onFrame(i, frame) {
        const enemy = world.enemies[i]!
        if (enemy.state === 'dying' && frame >= DEATH_FIRST && frame <= DEATH_LAST) enemy.deathFrames.push(frame)
      },
      onEnd(i) {
        const enemy = world.enemies[i]!
        if (enemy.state === 'dying') enemy.state = 'dead'
        else if (enemy.state === 'pain') {
          enemy.state = enemy.idle
          crowd.play(i, enemy.idle, { crossfade: BACK_TO_IDLE_FADE })
        }
      },
    }
    world.ready = true
    return () => {
      crowd.events = undefined
      world.ready = false
    }
  }, [world, crowd])

  useFrame((_, delta) => {
    world.enemies.forEach((enemy, i) => {
      // Only the living move: a hurt runner stops while its pain plays, the dead lie where they fell.
      if (enemy.state === 'run') enemy.angle += RUNNER_SPEED * delta
      if (enemy.state === 'run' || enemy.state === 'stand') place(crowd, enemy, i, world)
    })
  })

  return <primitive object={crowd} />
}

/** Where `place` puts an enemy, changed for each: nothing allocated per frame. */
const placement: Parameters<MD2Crowd['setTransform']>[1] = { position: { x: 0, y: 0, z: 0 }, rotation: 0 }

/** Puts enemy `i` on its ring: a runner faces along the ring, one standing faces the player. */
function place(crowd: MD2Crowd, enemy: Enemy, i: number, world: World): void {
  const { angle, ring, position } = enemy
  position.set(Math.sin(angle) * ring, position.y, Math.cos(angle) * ring)
  const player = world.player.position
  enemy.yaw =
    enemy.idle === 'run' ? Math.atan2(Math.cos(angle), -Math.sin(angle)) : Math.atan2(player.x - position.x, player.z - position.z)
  placement.position = position
  placement.rotation = enemy.yaw
  crowd.setTransform(i, placement)
}

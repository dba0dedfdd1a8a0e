import { useEffect } from 'react'
import type { MD2Crowd } from 'react-three-md2'
import { aimAt } from './combat'
import type { EnemyState, World } from './world'

/** The game's state as the browser test reads it: plain data (the world's counters as they are). */
export interface ArenaState extends Pick<World, 'ready' | 'footsteps' | 'shots' | 'kills' | 'lastHit' | 'blocked' | 'blockedBy'> {
  player: { x: number; y: number; z: number; yaw: number; animation: string }
  /** The player's collider (its pose box in the world) as [min, max]. */
  playerBox: [number[], number[]]
  /** Instances drawn in the last frame: enemies, and the weapons that follow them. */
  drawn: { enemies: number; weapons: number }
  enemies: { state: EnemyState; health: number; pains: number; deaths: number; deathFrames: number[]; x: number; z: number }[]
}

/** What the browser test reads and does, on `window.__arena`. */
export interface ArenaProbe {
  /** The game's state now. */
  state(): ArenaState
  /** Turns the player and the aim so the crosshair is on enemy `i`. */
  aimAt(i: number): void
  /** Puts the player at (x, z) facing `yaw` (a test's starting place). */
  place(x: number, z: number, yaw: number): void
}

declare global {
  interface Window {
    __arena?: ArenaProbe
  }
}

export function useArenaProbe(world: World, crowd: MD2Crowd, weapons: MD2Crowd): void {
  useEffect(() => {
    window.__arena = {
      state() {
        const { ready, player, footsteps, shots, kills, lastHit, blocked, blockedBy } = world
        const { position, yaw, animation, box } = player
        return {
          ready,
          player: { x: position.x, y: position.y, z: position.z, yaw, animation },
          footsteps,
          shots,
          kills,
          lastHit,
          blocked,
          blockedBy,
          playerBox: [box.min.toArray(), box.max.toArray()],
          drawn: { enemies: crowd.count, weapons: weapons.count },
          enemies: world.enemies.map(({ state, health, pains, deaths, deathFrames, position }) => ({
            state,
            health,
            pains,
            deaths,
            deathFrames: [...deathFrames],
            x: position.x,
            z: position.z,
          })),
        }
      },
      aimAt: (i) => aimAt(world, crowd, i),
      place(x, z, yaw) {
        world.player.position.set(x, world.player.position.y, z)
        world.player.yaw = yaw
      },
    }
    return () => {
      delete window.__arena
    }
  }, [world, crowd, weapons])
}

import { useEffect } from 'react'
import type { MD2Crowd } from 'react-three-md2'
import { aimAt } from './combat'
import type { EnemyState, World } from './world'

/** What the browser test reads and does, on `window.__arena`: plain data, read fresh at each access. */
export interface ArenaProbe {
  readonly ready: boolean
  readonly player: { x: number; y: number; z: number; yaw: number; animation: string }
  readonly footsteps: number
  readonly shots: number
  readonly kills: number
  readonly lastHit: number | null
  readonly blocked: number
  readonly blockedBy: number | null
  /** The player's collider (its pose box in the world) as [min, max]. */
  readonly playerBox: [number[], number[]]
  /** Instances drawn in the last frame: enemies, and the weapons that follow them. */
  readonly drawn: { enemies: number; weapons: number }
  readonly enemies: { state: EnemyState; health: number; pains: number; deaths: number; deathFrames: number[]; x: number; z: number }[]
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
      get ready() {
        return world.ready
      },
      get player() {
        const { position, yaw, animation } = world.player
        return { x: position.x, y: position.y, z: position.z, yaw, animation }
      },
      get footsteps() {
        return world.footsteps
      },
      get shots() {
        return world.shots
      },
      get kills() {
        return world.kills
      },
      get lastHit() {
        return world.lastHit
      },
      get blocked() {
        return world.blocked
      },
      get blockedBy() {
        return world.blockedBy
      },
      get playerBox(): [number[], number[]] {
        const { min, max } = world.player.box
        return [min.toArray(), max.toArray()]
      },
      get drawn() {
        return { enemies: crowd.count, weapons: weapons.count }
      },
      get enemies() {
        return world.enemies.map(({ state, health, pains, deaths, deathFrames, position }) => ({
          state,
          health,
          pains,
          deaths,
          deathFrames: [...deathFrames],
          x: position.x,
          z: position.z,
        }))
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

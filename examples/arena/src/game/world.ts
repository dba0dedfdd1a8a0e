import { Box3, Vector3 } from 'three'

/** Where the models are served from: public/players/, copied from the repository's assets/. */
export const OGRO = '/players/ogro/tris.MD2'
export const OGRO_WEAPON = '/players/ogro/weapon.md2'
export const RATAMAHATTA = '/players/ratamahatta/tris.md2'
/** Ratamahatta's tris.md2 names no skin: the crowd is given one. */
export const RATAMAHATTA_SKIN = '/players/ratamahatta/Ratamahatta.pcx'
export const RATAMAHATTA_WEAPON = '/players/ratamahatta/weapon.MD2'
/** The skin weapon.MD2 names (`players/Ratamahatta/weapon.pcx`), given to its crowd. */
export const RATAMAHATTA_WEAPON_SKIN = '/players/ratamahatta/weapon.pcx'

/** Enemies in the arena (its Storybook story makes it a control). */
export const ENEMY_COUNT = 200
/** Shots an enemy takes: the first hurts (a pain animation), the second kills. */
export const ENEMY_HEALTH = 2
/** Even enemies stand on the inner ring facing the player; odd ones run round the outer ring. */
export const INNER_RING = 520
export const OUTER_RING = 700
/** Radians a second the runners go round (about 150 units a second on the outer ring). */
export const RUNNER_SPEED = 150 / OUTER_RING
/** The floor's radius: the player stays inside it. */
export const ARENA_RADIUS = 1000
/** A player model's origin is about its waist: the feet are 24 units below it (Quake II's mins.z). */
export const FEET = -24

export type EnemyState = 'stand' | 'run' | 'pain' | 'dying' | 'dead'

export interface Enemy {
  /** What it does when nothing has happened to it. */
  readonly idle: 'stand' | 'run'
  state: EnemyState
  health: number
  /** Angle on its ring (radians; runners move along it). */
  angle: number
  readonly ring: number
  readonly position: Vector3
  yaw: number
  /** Times a pain animation and the death animation were started. */
  pains: number
  deaths: number
  /** The death animation's keyframes in the order the crowd reported them (`onFrame`): played once, it lists each once. */
  readonly deathFrames: number[]
}

export interface Player {
  readonly position: Vector3
  yaw: number
  /** The camera's pitch (radians, negative looks down): the crosshair's height. */
  pitch: number
  /** Height above the floor (jumping) and vertical speed. */
  height: number
  velocity: number
  /** The animation shown, by Quake II's frame names (`stand`, `run`, `jump`, `crstand`…). */
  animation: string
  /** The player's collider: the box of the pose drawn (`<MD2PoseBounds>`), in world space. */
  readonly box: Box3
}

/** Everything the game knows, outside React: the components write it every frame, the HUD and the test read it. */
export interface World {
  readonly player: Player
  readonly enemies: Enemy[]
  footsteps: number
  shots: number
  kills: number
  /** The enemy the last shot hit (a corpse too), or null when it hit nothing. */
  lastHit: number | null
  /** Moves the player did not make because an enemy's pose box was in the way, and the last enemy in the way. */
  blocked: number
  blockedBy: number | null
  /** Both models are loaded and the crowd is placed. */
  ready: boolean
}

export function createWorld(count = ENEMY_COUNT): World {
  const enemies: Enemy[] = []
  for (let i = 0; i < count; i++) {
    const runs = i % 2 === 1
    const ring = runs ? OUTER_RING : INNER_RING
    // Each ring holds half of them, evenly spaced; the outer ring is turned half a step.
    const angle = ((Math.floor(i / 2) + (runs ? 0.5 : 0)) / Math.ceil(count / 2)) * Math.PI * 2
    enemies.push({
      idle: runs ? 'run' : 'stand',
      state: runs ? 'run' : 'stand',
      health: ENEMY_HEALTH,
      angle,
      ring,
      position: new Vector3(Math.sin(angle) * ring, -FEET, Math.cos(angle) * ring),
      yaw: 0,
      pains: 0,
      deaths: 0,
      deathFrames: [],
    })
  }
  return {
    player: { position: new Vector3(0, -FEET, 0), yaw: 0, pitch: -0.07, height: 0, velocity: 0, animation: 'stand', box: new Box3() },
    enemies,
    footsteps: 0,
    shots: 0,
    kills: 0,
    lastHit: null,
    blocked: 0,
    blockedBy: null,
    ready: false,
  }
}

export function isDown(enemy: Enemy): boolean {
  return enemy.state === 'dying' || enemy.state === 'dead'
}

import { Canvas, useFrame, useThree } from '@react-three/fiber'
import { Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { Box3, PCFShadowMap, Raycaster, Vector2, Vector3, type Camera, type Group, type Mesh } from 'three'
import { MD2Model, useMD2, useMD2Crowd, useMD2Skin, usePlayerAnimation, type MD2Crowd } from '../../src/index'
import { OGRO, OGRO_WEAPON, RATAMAHATTA, RATAMAHATTA_SKINS, RATAMAHATTA_WEAPON, RATAMAHATTA_WEAPON_SKIN } from './assets'
import { canvasGl, useStoryRenderer } from './renderers'
import { BACKGROUND } from './Stage'

/**
 * The arena of examples/arena in a story, on the library's source: an ogro you drive (Quake II's
 * player rules through `usePlayerAnimation`), a crowd of Ratamahattas on the GPU (`useMD2Crowd`,
 * Quake II lighting, armed by a weapons crowd that `follow`s it) that a shot through the crosshair hurts and kills (the crowd's raycast reports
 * the `instanceId`; its `onEnd` marks the dead), footsteps from the run keyframes, and pose-box
 * colliders. The example app is the full version (its own package, tested in Chromium by
 * examples/arena/test); this is the same game in fewer lines. Keys go to the arena only while it has
 * the focus (click it), so several on a docs page do not all move.
 */
export interface ArenaArgs {
  /** Enemies in the crowd (half stand on the inner ring, half run round the outer one). */
  enemies: number
}

const INNER_RING = 520
const OUTER_RING = 700
const RUN_SPEED = 300
const TURN_SPEED = 2.5
const JUMP_SPEED = 270
const GRAVITY = 800
/** Player models have their origin about the waist: the feet are 24 units below it. */
const FEET = -24
/** The run keyframes where a foot lands (run2, run5), and the death frames (death1–3). */
const FOOTFALLS = new Set([41, 44])
const DEATHS = ['death1', 'death2', 'death3'] as const

type EnemyState = 'stand' | 'run' | 'pain' | 'dying' | 'dead'
interface Enemy {
  idle: 'stand' | 'run'
  state: EnemyState
  health: number
  angle: number
  ring: number
  position: Vector3
}

interface World {
  enemies: Enemy[]
  player: { position: Vector3; yaw: number; pitch: number; height: number; velocity: number; box: Box3 }
  footsteps: number
  kills: number
}

function createWorld(count: number): World {
  const enemies = Array.from({ length: count }, (_, i): Enemy => {
    const runs = i % 2 === 1
    const angle = ((Math.floor(i / 2) + (runs ? 0.5 : 0)) / Math.ceil(count / 2)) * Math.PI * 2
    return {
      idle: runs ? 'run' : 'stand',
      state: runs ? 'run' : 'stand',
      health: 2,
      angle,
      ring: runs ? OUTER_RING : INNER_RING,
      position: new Vector3(),
    }
  })
  return {
    enemies,
    player: { position: new Vector3(0, -FEET, 0), yaw: 0, pitch: -0.07, height: 0, velocity: 0, box: new Box3() },
    footsteps: 0,
    kills: 0,
  }
}

const down = (enemy: Enemy) => enemy.state === 'dying' || enemy.state === 'dead'

/** Keys held and pressed, read from one element (the arena) rather than the window. */
function useKeys(element: RefObject<HTMLDivElement | null>) {
  const held = useRef(new Set<string>())
  const pressed = useRef<string[]>([])
  useEffect(() => {
    const target = element.current
    if (!target) return
    const keydown = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase()
      if (!event.repeat) pressed.current.push(key)
      held.current.add(key)
      event.preventDefault()
    }
    const keyup = (event: KeyboardEvent) => held.current.delete(event.key.toLowerCase())
    const blur = () => held.current.clear()
    const click = () => pressed.current.push('f')
    target.addEventListener('keydown', keydown)
    target.addEventListener('keyup', keyup)
    target.addEventListener('blur', blur)
    target.addEventListener('pointerdown', click)
    return () => {
      target.removeEventListener('keydown', keydown)
      target.removeEventListener('keyup', keyup)
      target.removeEventListener('blur', blur)
      target.removeEventListener('pointerdown', click)
    }
  }, [element])
  return { held, pressed }
}

const raycaster = new Raycaster()
const screenCentre = new Vector2()
const box = new Box3()
const centre = new Vector3()

/** The camera: behind the player, over its right shoulder (so it never hides the target), along its yaw and the aim's pitch. */
const BACK = 150
const SHOULDER = 36
const UP = 56
function placeCamera(camera: Camera, player: World['player']) {
  const { position, yaw, pitch } = player
  const [sin, cos] = [Math.sin(yaw), Math.cos(yaw)]
  camera.position.set(position.x - sin * BACK - cos * SHOULDER, position.y + UP, position.z - cos * BACK + sin * SHOULDER)
  centre.set(sin * Math.cos(pitch), Math.sin(pitch), cos * Math.cos(pitch)).add(camera.position)
  camera.lookAt(centre)
}

/**
 * T: turn and pitch the aim onto the nearest enemy still standing (the crosshair on its pose box's
 * middle): the bearing to it, turned by the shoulder's angle at that distance.
 */
function aimAtNearest(world: World, crowd: MD2Crowd) {
  const { player } = world
  let nearest = -1
  world.enemies.forEach((enemy, i) => {
    if (down(enemy)) return
    if (nearest < 0 || enemy.position.distanceTo(player.position) < world.enemies[nearest]!.position.distanceTo(player.position))
      nearest = i
  })
  if (nearest < 0) return
  crowd.getPoseBounds(nearest, box).getCenter(centre)
  const distance = Math.hypot(centre.x - player.position.x, centre.z - player.position.z)
  player.yaw = Math.atan2(centre.x - player.position.x, centre.z - player.position.z) + Math.asin(Math.min(1, SHOULDER / distance))
  player.pitch = Math.atan2(centre.y - (player.position.y + UP), Math.sqrt(Math.max(0, distance ** 2 - SHOULDER ** 2)) + BACK)
}

/** F or a click: the crowd's raycast names the enemy hit; a pain, or the death played once. Corpses stop shots and stay dead. */
function shoot(world: World, crowd: MD2Crowd, camera: Camera) {
  raycaster.setFromCamera(screenCentre, camera)
  const i = raycaster.intersectObject(crowd, false)[0]?.instanceId
  const enemy = i === undefined ? undefined : world.enemies[i]
  if (i === undefined || !enemy || down(enemy)) return
  enemy.health -= 1
  if (enemy.health > 0) {
    enemy.state = 'pain'
    crowd.play(i, 'pain1', { loop: false })
  } else {
    enemy.state = 'dying'
    world.kills++
    crowd.play(i, DEATHS[i % 3]!, { loop: false })
  }
}

/** Whether the player's pose box overlaps a standing enemy's (asked only of those near: the query blends a pose). */
function touchesEnemy(world: World, crowd: MD2Crowd): boolean {
  const { position, box: playerBox } = world.player
  return world.enemies.some(
    (enemy, i) => !down(enemy) && enemy.position.distanceTo(position) < 160 && crowd.getPoseBounds(i, box).intersectsBox(playerBox),
  )
}

function Enemies({ world, crowd }: { world: World; crowd: MD2Crowd }) {
  useEffect(() => {
    world.enemies.forEach((enemy, i) => crowd.play(i, enemy.idle, { speed: 0.85 + ((i * 37) % 30) / 100 }))
    crowd.events = {
      onEnd(i) {
        const enemy = world.enemies[i]!
        if (enemy.state === 'dying') enemy.state = 'dead'
        else if (enemy.state === 'pain') {
          enemy.state = enemy.idle
          crowd.play(i, enemy.idle, { crossfade: 0.2 })
        }
      },
    }
    return () => {
      crowd.events = undefined
    }
  }, [world, crowd])
  useFrame((_, delta) => {
    const player = world.player.position
    world.enemies.forEach((enemy, i) => {
      if (enemy.state === 'run') enemy.angle += (150 / OUTER_RING) * delta
      if (enemy.state !== 'run' && enemy.state !== 'stand' && enemy.position.lengthSq() > 0) return
      const { angle, ring, position } = enemy
      position.set(Math.sin(angle) * ring, -FEET, Math.cos(angle) * ring)
      const yaw =
        enemy.idle === 'run' ? Math.atan2(Math.cos(angle), -Math.sin(angle)) : Math.atan2(player.x - position.x, player.z - position.z)
      crowd.setTransform(i, position, yaw)
    })
  })
  return <primitive object={crowd} />
}

function Player({
  world,
  crowd,
  keys,
  hud,
}: {
  world: World
  crowd: MD2Crowd
  keys: ReturnType<typeof useKeys>
  hud: RefObject<HTMLPreElement | null>
}) {
  const model = useMD2(OGRO)
  // The rules move the frame at 10 Hz, one keyframe a tick: a run keyframe where a foot lands is a footstep.
  const animation = usePlayerAnimation(model, {
    crossfade: 0.1,
    onFrame: (frame) => {
      if (FOOTFALLS.has(frame)) world.footsteps++
    },
  })
  const root = useRef<Group>(null)
  const camera = useThree((state) => state.camera)

  useFrame((_, frameSeconds) => {
    const group = root.current
    const mesh = group?.children[0] as Mesh | undefined
    if (!group || !mesh?.geometry.boundingBox) return
    // A slow frame is not caught up in one step: that would run the player through an enemy.
    const delta = Math.min(frameSeconds, 1 / 20)
    const { player } = world
    const input = animation.input
    const held = keys.held.current
    const has = (...names: string[]) => names.some((name) => held.has(name))
    const forward = has('w', 'arrowup')
    const back = has('s', 'arrowdown')
    player.yaw += (Number(has('a', 'arrowleft')) - Number(has('d', 'arrowright'))) * TURN_SPEED * delta
    input.crouched = held.has('c')
    input.moving = forward !== back
    // This frame's presses, up to and with the first T: the crowd's raycast tests the enemies drawn in
    // its last update (those in view), so after the aim jumps, a shot waits for a frame drawn with it.
    const queue = keys.pressed.current
    const presses = queue.splice(0, queue.includes('t') ? queue.indexOf('t') + 1 : queue.length)
    for (const key of presses) {
      if (key === ' ' && player.height === 0) player.velocity = JUMP_SPEED
      if (key === 't') aimAtNearest(world, crowd)
      if (key === 'f') input.firing = true
    }
    player.velocity -= GRAVITY * delta
    player.height = Math.max(0, player.height + player.velocity * delta)
    if (player.height === 0) player.velocity = 0
    input.onGround = player.height === 0

    // Move, then undo the move if it walked into a standing enemy's pose box.
    const speed = (forward === back ? 0 : forward ? 1 : -0.6) * RUN_SPEED * (input.crouched ? 0.5 : 1) * delta
    const { x, z } = player.position
    player.position.set(x + Math.sin(player.yaw) * speed, player.height - FEET, z + Math.cos(player.yaw) * speed)
    group.position.copy(player.position)
    group.rotation.y = player.yaw
    group.updateMatrixWorld()
    player.box.copy(mesh.geometry.boundingBox).applyMatrix4(mesh.matrixWorld)
    if (speed !== 0 && touchesEnemy(world, crowd)) {
      player.position.set(x, player.position.y, z)
      group.position.copy(player.position)
    }

    placeCamera(camera, player)
    for (const key of presses) if (key === 'f') shoot(world, crowd, camera)

    const frame = animation.state.frame
    if (hud.current) {
      const running = frame >= 40 && frame <= 45
      hud.current.textContent = `animation ${running ? 'run' : `frame ${frame}`} · footsteps ${world.footsteps} · kills ${world.kills}`
    }
  })

  return (
    <MD2Model ref={root} model={model} controller={animation} bounds="pose" lighting="quake2" shadelight={0.9}>
      <MD2Model url={OGRO_WEAPON} sync lighting="quake2" shadelight={0.9} />
    </MD2Model>
  )
}

function Scene({ count, keys, hud }: { count: number; keys: ReturnType<typeof useKeys>; hud: RefObject<HTMLPreElement | null> }) {
  const world = useMemo(() => createWorld(count), [count])
  const look = { limit: Math.max(count, 1), lighting: 'quake2', shadelight: 0.9 } as const
  // Quake II's blob shadows on the floor (y = 0), all in one more draw; the weapons cast theirs too.
  const crowd = useMD2Crowd(useMD2(RATAMAHATTA), {
    ...look,
    map: useMD2Skin(RATAMAHATTA_SKINS.ratamahatta!),
    shadow: 'blob',
    shadowFloor: 0,
  })
  // Their weapons: a second crowd that follows the first, each weapon on its body's place and frames.
  const weapons = useMD2Crowd(useMD2(RATAMAHATTA_WEAPON), { ...look, map: useMD2Skin(RATAMAHATTA_WEAPON_SKIN) })
  useLayoutEffect(() => {
    weapons.follow(crowd)
    return () => weapons.follow(null)
  }, [weapons, crowd])
  return (
    <>
      <hemisphereLight args={['#f0e6d8', '#3a3028', 1.6]} />
      <mesh rotation-x={-Math.PI / 2}>
        <circleGeometry args={[1000, 96]} />
        <meshLambertMaterial color="#5b5347" />
      </mesh>
      <Enemies world={world} crowd={crowd} />
      <Player world={world} crowd={crowd} keys={keys} hud={hud} />
    </>
  )
}

const KEYS = 'W A S D / arrows: run, turn · Space: jump · C: crouch · T: aim at the nearest · F / click: shoot'

export function ArenaScene({ enemies }: ArenaArgs) {
  const renderer = useStoryRenderer()
  const element = useRef<HTMLDivElement>(null)
  const hud = useRef<HTMLPreElement>(null)
  const keys = useKeys(element)
  const [focused, setFocused] = useState(false)
  return (
    <div
      ref={element}
      tabIndex={0}
      data-testid="arena"
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      style={{ position: 'relative', width: '100%', height: '100vh', minHeight: 360, outline: 'none' }}
    >
      <Canvas
        key={renderer}
        flat
        dpr={[1, 2]}
        gl={canvasGl(renderer)}
        // R3F's default shadow map type (PCFSoftShadowMap) is gone from three r18x, which warns of it.
        shadows={{ enabled: false, type: PCFShadowMap }}
        camera={{ fov: 60, near: 1, far: 4000, position: [0, 80, -150] }}
      >
        <color attach="background" args={[BACKGROUND]} />
        <Suspense fallback={null}>
          <Scene count={enemies} keys={keys} hud={hud} />
        </Suspense>
      </Canvas>
      {/* The crosshair: where a shot goes. */}
      <div
        style={{
          position: 'absolute',
          left: '50%',
          top: '50%',
          transform: 'translate(-50%, -50%)',
          color: '#f4f1e8',
          pointerEvents: 'none',
        }}
      >
        +
      </div>
      <div style={{ position: 'absolute', left: 8, top: 8, font: '12px monospace', color: '#e8eef5', pointerEvents: 'none' }}>
        <div>{focused ? KEYS : `click the arena, then ${KEYS}`}</div>
        <pre ref={hud} data-testid="arena-state" style={{ margin: '6px 0 0' }} />
      </div>
    </div>
  )
}

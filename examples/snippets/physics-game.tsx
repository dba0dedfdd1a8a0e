import { Canvas, useFrame } from '@react-three/fiber'
import { CuboidCollider, Physics, RigidBody, useRapier, type RapierCollider, type RapierRigidBody } from '@react-three/rapier'
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import type { Group } from 'three'
import { MD2Instance, MD2Instances, MD2Player, usePlayerAnimation } from 'react-three-md2'
import { MD2Collider } from 'react-three-md2/rapier'

/** What drives the player, written by the keys (below) or by anything else: a gamepad, a network, a test. */
export interface Controls {
  /** 1 runs forward, −1 back. */
  forward: number
  /** 1 turns left, −1 right. */
  turn: number
  jump: boolean
  attack: boolean
}

/** W/S run, A/D turn, Space jumps, F attacks. */
function useKeyboard(controls: Controls) {
  useEffect(() => {
    const held = new Set<string>()
    const key = (event: KeyboardEvent) => {
      if (event.type === 'keydown') held.add(event.key.toLowerCase())
      else held.delete(event.key.toLowerCase())
      controls.forward = Number(held.has('w')) - Number(held.has('s'))
      controls.turn = Number(held.has('a')) - Number(held.has('d'))
      controls.jump = held.has(' ')
      controls.attack = held.has('f')
    }
    addEventListener('keydown', key)
    addEventListener('keyup', key)
    return () => {
      removeEventListener('keydown', key)
      removeEventListener('keyup', key)
    }
  }, [controls])
}

/** The characters' height in the world's units, metres, where rapier's defaults (gravity 9.81) fit. */
const HEIGHT = 1.7
const SPEED = 4
const JUMP = 5
const GRAVITY = 9.81

/** The player folder's files (a build-time listing): each found in its case, with no request that misses. */
const OGRO_FILES = ['tris.MD2', 'igdosh.pcx', 'w_railgun.MD2', 'g_rail.pcx']

/**
 * rapier's character controller carries the player: it slides along what it meets and stops at the enemies'
 * colliders. The animation follows the controller: running while it moves, jumping while it is in the air,
 * attacking while F is held, standing otherwise (Quake II's rules, `usePlayerAnimation`).
 */
export function Player({ controls }: { controls: Controls }) {
  const { world } = useRapier()
  const body = useRef<RapierRigidBody>(null)
  const collider = useRef<RapierCollider>(null)
  const model = useRef<Group>(null)
  const player = usePlayerAnimation({ crossfade: 0.1 })
  const [controller] = useState(() => ({ heading: Math.PI, fall: 0 }))
  const [character, setCharacter] = useState<ReturnType<typeof world.createCharacterController>>()
  useEffect(() => {
    // 1 cm of skin; keeps to the ground going down slopes and steps up to 30 cm.
    const made = world.createCharacterController(0.01)
    made.enableSnapToGround(0.3)
    setCharacter(made)
    return () => world.removeCharacterController(made)
  }, [world])
  useFrame((_, delta) => {
    if (!character || !body.current || !collider.current || !model.current) return
    const step = Math.min(delta, 0.05)
    controller.heading += controls.turn * 3 * step
    const grounded = character.computedGrounded()
    controller.fall = grounded && controls.jump ? JUMP : grounded ? 0 : controller.fall - GRAVITY * step
    const run = controls.forward * SPEED * step
    character.computeColliderMovement(collider.current, {
      x: Math.sin(controller.heading) * run,
      y: controller.fall * step,
      z: Math.cos(controller.heading) * run,
    })
    const moved = character.computedMovement()
    const at = body.current.translation()
    body.current.setNextKinematicTranslation({ x: at.x + moved.x, y: at.y + moved.y, z: at.z + moved.z })
    // The body does not turn (the controller's capsule is upright): the model does.
    model.current.rotation.y = controller.heading
    player.input.moving = Math.hypot(moved.x, moved.z) > 0.2 * SPEED * step
    player.input.onGround = character.computedGrounded()
    player.input.attacking = controls.attack
  })
  return (
    <RigidBody ref={body} type="kinematicPosition" colliders={false} position={[0, 0, 3]}>
      <MD2Player
        ref={model}
        path="/players/ogro/"
        files={OGRO_FILES}
        skin="igdosh"
        weapon="railgun"
        controller={player}
        height={HEIGHT}
        origin="feet"
      >
        <MD2Collider ref={collider} shape="capsule" />
      </MD2Player>
    </RigidBody>
  )
}

/** Where the enemies stand (metres), in front of the player; the third patrols, 1 m either side of its place. */
export const ENEMIES = [
  { id: 0, x: 0, z: 0, patrol: 0 },
  { id: 1, x: -2.5, z: -1, patrol: 0 },
  { id: 2, x: 2.5, z: -1, patrol: 1 },
]

/**
 * An enemy, its collider kept to its pose and place: standing, falling with it when shot, and no longer
 * blocking once its death has played (a corpse the player walks over).
 */
function Enemy({ x, z, patrol, dead, onShot }: { x: number; z: number; patrol: number; dead: boolean; onShot: () => void }) {
  const [corpse, setCorpse] = useState(false)
  const place = useRef<Group>(null)
  // A patrol: the instance moved every frame; its collider follows.
  useFrame(({ clock }) => {
    if (!patrol || dead || !place.current) return
    const t = clock.elapsedTime / 2
    place.current.position.x = x + Math.sin(t) * patrol
    place.current.rotation.y = Math.cos(t) > 0 ? Math.PI / 2 : -Math.PI / 2
  })
  return (
    <MD2Instance
      ref={place}
      position={[x, 0, z]}
      animation={dead ? 'death1' : patrol ? 'run' : 'stand'}
      loop={!dead}
      onAnimationEnd={() => setCorpse(dead)}
      onClick={(event) => {
        event.stopPropagation()
        onShot()
      }}
    >
      {/* In the crowd's height and origin, at the instance's place. */}
      <MD2Collider enabled={!corpse} />
    </MD2Instance>
  )
}

/** The enemies in one draw; a click shoots the one under the pointer. */
export function Enemies({ dead, onShot }: { dead: readonly number[]; onShot: (id: number) => void }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx" limit={ENEMIES.length} height={HEIGHT} origin="feet">
      {ENEMIES.map(({ id, x, z, patrol }) => (
        <Enemy key={id} x={x} z={z} patrol={patrol} dead={dead.includes(id)} onShot={() => onShot(id)} />
      ))}
    </MD2Instances>
  )
}

/** The floor: a fixed body. */
function Floor() {
  return (
    <RigidBody type="fixed" colliders={false}>
      <CuboidCollider args={[20, 0.1, 20]} position={[0, -0.1, 0]} />
      <mesh rotation-x={-Math.PI / 2}>
        <planeGeometry args={[40, 40]} />
        <meshStandardMaterial color="#4a5260" />
      </mesh>
    </RigidBody>
  )
}

/** The game: `controls` drive the player (the keys write them too); `children`: more of the world, in `<Physics>`. */
export default function PhysicsGame({ controls, children }: { controls: Controls; children?: ReactNode }) {
  useKeyboard(controls)
  const [dead, setDead] = useState<number[]>([])
  return (
    <Canvas camera={{ position: [0, 3, 8], fov: 50 }} style={{ height: '100svh' }}>
      <color attach="background" args={['#1d2733']} />
      <ambientLight intensity={1.5} />
      <directionalLight position={[3, 5, 2]} intensity={2} />
      {/* rapier's physics engine loads (WebAssembly) while <Physics> suspends. */}
      <Suspense fallback={null}>
        <Physics>
          <Floor />
          <Suspense fallback={null}>
            <Player controls={controls} />
          </Suspense>
          <Suspense fallback={null}>
            <Enemies dead={dead} onShot={(id) => setDead((shot) => (shot.includes(id) ? shot : [...shot, id]))} />
          </Suspense>
          {children}
        </Physics>
      </Suspense>
    </Canvas>
  )
}

import { Canvas, useFrame } from '@react-three/fiber'
import { Suspense, useEffect, useRef, useState } from 'react'
import type { Group } from 'three'
import {
  MD2BlobShadow,
  MD2ErrorBoundary,
  MD2Instance,
  MD2Instances,
  MD2Player,
  MD2Quake2Lighting,
  MD2Shell,
  usePlayerAnimation,
} from 'react-three-md2'

/** The keys held down now, lower case. */
function useKeys() {
  const keys = useRef(new Set<string>())
  useEffect(() => {
    const down = (event: KeyboardEvent) => keys.current.add(event.key.toLowerCase())
    const up = (event: KeyboardEvent) => keys.current.delete(event.key.toLowerCase())
    addEventListener('keydown', down)
    addEventListener('keyup', up)
    return () => {
      removeEventListener('keydown', down)
      removeEventListener('keyup', up)
    }
  }, [])
  return keys
}

/** The player folder's files (a build-time listing): each found in its case, with no request that misses. */
const OGRO_FILES = ['tris.MD2', 'igdosh.pcx', 'w_railgun.MD2', 'g_rail.pcx']

/** W/S run, A/D turn, C crouch, F (held) fires, Q toggles quad damage. */
function Player() {
  const player = usePlayerAnimation({ crossfade: 0.1 })
  const root = useRef<Group>(null)
  const keys = useKeys()
  const [quad, setQuad] = useState(false)
  useEffect(() => {
    const toggle = (event: KeyboardEvent) => event.key.toLowerCase() === 'q' && setQuad((on) => !on)
    addEventListener('keydown', toggle)
    return () => removeEventListener('keydown', toggle)
  }, [])
  useFrame((_, delta) => {
    const held = keys.current
    const input = player.input
    const forward = Number(held.has('w')) - Number(held.has('s'))
    root.current!.rotation.y += (Number(held.has('a')) - Number(held.has('d'))) * 3 * delta
    root.current!.translateZ(forward * (held.has('c') ? 60 : 150) * delta)
    input.moving = forward !== 0
    input.crouched = held.has('c')
    // Held fire is a state: the attack plays through, then again (`firing` would be one shot).
    input.attacking = held.has('f')
  })
  return (
    <MD2Player ref={root} path="/players/ogro/" files={OGRO_FILES} skin="igdosh" weapon="railgun" controller={player}>
      {/* Looks dress the body and the weapon alike. */}
      <MD2Quake2Lighting shadelight={0.9} />
      <MD2BlobShadow floor={-24} />
      {quad && <MD2Shell color="blue" />}
    </MD2Player>
  )
}

/** Twelve armed ogros in two draws; a click kills the one under the pointer. */
export const ENEMIES = Array.from({ length: 12 }, (_, i) => ({ id: i, x: ((i % 4) - 1.5) * 60, z: -120 - Math.floor(i / 4) * 60 }))

function Enemies({ dead, onKill }: { dead: readonly number[]; onKill: (id: number) => void }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx" limit={ENEMIES.length}>
      <MD2Quake2Lighting shadelight={0.7} />
      {ENEMIES.map(({ id, x, z }) => (
        <MD2Instance
          key={id}
          position={[x, 0, z]}
          animation={dead.includes(id) ? 'death1' : 'stand'}
          loop={!dead.includes(id)}
          onClick={(event) => {
            event.stopPropagation()
            onKill(id)
          }}
        />
      ))}
      <MD2Instances url="/players/ogro/w_railgun.MD2" sync />
    </MD2Instances>
  )
}

export default function Game() {
  // The dead, by id: a second click on one (even before React has drawn it dying) counts once.
  const [dead, setDead] = useState<number[]>([])
  const kill = (id: number) => setDead((killed) => (killed.includes(id) ? killed : [...killed, id]))
  const [problem, setProblem] = useState<string>()
  return (
    <>
      <Canvas camera={{ position: [0, 30, 130], fov: 50 }} style={{ height: '100svh' }}>
        <color attach="background" args={['#1d2733']} />
        <mesh rotation-x={-Math.PI / 2} position-y={-24.5}>
          <planeGeometry args={[600, 600]} />
          <meshBasicMaterial color="#4a5260" />
        </mesh>
        {/* A part that fails (a file moved, a wrong case) is left out, its message shown; the rest plays on. */}
        <MD2ErrorBoundary fallback={null} onError={(error) => setProblem(error.message)}>
          <Suspense fallback={null}>
            <Player />
          </Suspense>
        </MD2ErrorBoundary>
        <MD2ErrorBoundary fallback={null} onError={(error) => setProblem(error.message)}>
          <Suspense fallback={null}>
            <Enemies dead={dead} onKill={kill} />
          </Suspense>
        </MD2ErrorBoundary>
      </Canvas>
      <p style={{ position: 'fixed', top: 8, left: 12, color: 'white', fontFamily: 'sans-serif' }}>
        Kills: {dead.length} {problem && <span style={{ color: 'salmon' }}>{problem}</span>}
      </p>
    </>
  )
}

import type { RefObject } from 'react'
import { Enemies } from './Enemies'
import { Player } from './Player'
import { useArenaProbe } from './probe'
import { useEnemyCrowd } from './useEnemyCrowd'
import { ARENA_RADIUS, INNER_RING, OUTER_RING, type World } from './world'

/** The floor the feet stand on: Quake II player models have their origin 24 units above it. */
function Floor() {
  return (
    <group position-y={0}>
      <mesh rotation-x={-Math.PI / 2}>
        <circleGeometry args={[ARENA_RADIUS, 96]} />
        <meshLambertMaterial color="#5b5347" />
      </mesh>
      {/* The two rings the enemies keep to, drawn on the floor. */}
      {[INNER_RING, OUTER_RING].map((radius) => (
        <mesh key={radius} rotation-x={-Math.PI / 2} position-y={0.5}>
          <ringGeometry args={[radius - 30, radius + 30, 96]} />
          <meshLambertMaterial color="#6e6253" />
        </mesh>
      ))}
    </group>
  )
}

/**
 * The scene inside the `<Canvas>`: the floor, the player, and the enemies' crowd. The crowd is made
 * here, above both, because the player's shots and colliders ask it about the enemies. Keys come from
 * the window, or from `keyTarget` while it has the focus.
 */
export function Arena({ world, keyTarget }: { world: World; keyTarget?: RefObject<HTMLElement | null> }) {
  const { bodies: crowd, weapons } = useEnemyCrowd(world.enemies.length)
  useArenaProbe(world, crowd, weapons)
  return (
    <>
      <hemisphereLight args={['#f0e6d8', '#3a3028', 1.6]} />
      <directionalLight position={[300, 600, 200]} intensity={1.5} />
      <Floor />
      <Enemies world={world} crowd={crowd} />
      <Player world={world} crowd={crowd} keyTarget={keyTarget} />
    </>
  )
}

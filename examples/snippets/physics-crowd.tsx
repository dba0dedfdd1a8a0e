import { useState } from 'react'
import { MD2Instance, MD2Instances } from 'react-three-md2'
import { MD2Collider } from 'react-three-md2/rapier'

/** An enemy: its collider keeps to its pose and place, and stops blocking once its death has played. */
function Enemy({ x, z }: { x: number; z: number }) {
  const [dead, setDead] = useState(false)
  const [corpse, setCorpse] = useState(false)
  return (
    <MD2Instance
      position={[x, 0, z]}
      animation={dead ? 'death1' : 'stand'}
      loop={!dead}
      onAnimationEnd={() => setCorpse(dead)}
      onClick={() => setDead(true)}
    >
      <MD2Collider enabled={!corpse} />
    </MD2Instance>
  )
}

/** In rapier's `<Physics>`: enemies 1.7 m tall, feet at their places, their colliders in metres too. */
export function Enemies({ places }: { places: [number, number][] }) {
  return (
    <MD2Instances url="/players/ogro/tris.MD2" skin="igdosh.pcx" height={1.7} origin="feet">
      {places.map(([x, z]) => (
        <Enemy key={`${x},${z}`} x={x} z={z} />
      ))}
    </MD2Instances>
  )
}

import { Canvas } from '@react-three/fiber'
import { Suspense, useState } from 'react'
import { Arena } from './game/Arena'
import { Hud } from './game/Hud'
import { createWorld } from './game/world'

export default function App() {
  const [world] = useState(createWorld)
  return (
    <div className="game">
      <Canvas flat camera={{ fov: 60, near: 1, far: 4000, position: [0, 74, -120] }}>
        <color attach="background" args={['#1d2733']} />
        <Suspense fallback={null}>
          <Arena world={world} />
        </Suspense>
      </Canvas>
      <Hud world={world} />
    </div>
  )
}

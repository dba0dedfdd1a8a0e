import { Canvas } from '@react-three/fiber'
import { Suspense } from 'react'
import { MD2ErrorBoundary, MD2Model } from 'react-three-md2'

export default function App() {
  return (
    <MD2ErrorBoundary>
      <Canvas camera={{ position: [0, 12, 100], fov: 45 }} style={{ height: '100svh' }}>
        <hemisphereLight args={['#ffffff', '#5a4a3a', 2.5]} />
        <directionalLight position={[40, 100, 90]} intensity={3} />
        <Suspense fallback={null}>
          <MD2Model url="/players/ogro/tris.MD2" animation="run" crossfade={0.2} />
        </Suspense>
      </Canvas>
    </MD2ErrorBoundary>
  )
}

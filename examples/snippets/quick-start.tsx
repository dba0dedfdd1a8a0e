import { Canvas } from '@react-three/fiber'
import { Component, Suspense, type ReactNode } from 'react'
import { MD2Model } from 'react-three-md2'

/** Shows what failed (the package's message names the file and why) instead of a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {}
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  override render() {
    return this.state.error ? <pre style={{ color: 'crimson', padding: 16 }}>{this.state.error.message}</pre> : this.props.children
  }
}

export default function App() {
  return (
    <ErrorBoundary>
      <Canvas camera={{ position: [0, 12, 100], fov: 45 }} style={{ height: '100svh' }}>
        <hemisphereLight args={['#ffffff', '#5a4a3a', 2.5]} />
        <directionalLight position={[40, 100, 90]} intensity={3} />
        <Suspense fallback={null}>
          <MD2Model url="/players/ogro/tris.MD2" animation="run" crossfade={0.2} />
        </Suspense>
      </Canvas>
    </ErrorBoundary>
  )
}

import { Canvas } from '@react-three/fiber'
import { Suspense, useMemo, useRef } from 'react'
import { PCFShadowMap } from 'three'
import { Arena } from '../../examples/arena/src/game/Arena'
import { Hud } from '../../examples/arena/src/game/Hud'
import { createWorld } from '../../examples/arena/src/game/world'
import { canvasGl, useStoryRenderer } from './renderers'
import { BACKGROUND } from './Stage'

/**
 * The game of examples/arena itself, on the library's source (Storybook resolves `react-three-md2` to
 * src/ and serves the models at /players/, where the app keeps them): this adds only the story's
 * renderer, its enemy count and a focus of its own. Keys go to the arena only while it has the focus
 * (click it), so that it does not move while you type elsewhere on the page.
 */
export interface ArenaArgs {
  /** Enemies in the crowd (half stand on the inner ring, half run round the outer one). */
  enemies: number
}

export function ArenaScene({ enemies }: ArenaArgs) {
  const renderer = useStoryRenderer()
  const element = useRef<HTMLDivElement>(null)
  const world = useMemo(() => createWorld(enemies), [enemies])
  return (
    <div
      ref={element}
      tabIndex={0}
      data-testid="arena"
      style={{ position: 'relative', width: '100%', height: '100vh', minHeight: 360, outline: 'none' }}
    >
      <Canvas
        key={`${renderer}:${enemies}`}
        flat
        dpr={[1, 2]}
        gl={canvasGl(renderer)}
        // R3F's default shadow map type (PCFSoftShadowMap) is gone from three r18x, which warns of it.
        shadows={{ enabled: false, type: PCFShadowMap }}
        camera={{ fov: 60, near: 1, far: 4000, position: [0, 74, -120] }}
      >
        <color attach="background" args={[BACKGROUND]} />
        <Suspense fallback={null}>
          <Arena world={world} keyTarget={element} />
        </Suspense>
      </Canvas>
      <Hud world={world} />
    </div>
  )
}

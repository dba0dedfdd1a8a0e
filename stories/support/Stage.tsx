import { ContactShadows, OrbitControls } from '@react-three/drei'
import { Canvas } from '@react-three/fiber'
import {
  createContext,
  Suspense,
  useContext,
  useId,
  useLayoutEffect,
  useMemo,
  useSyncExternalStore,
  type CSSProperties,
  type ReactNode,
} from 'react'
import { PCFShadowMap } from 'three'
import { canvasGl, type RendererKind } from './renderers'

/** Shadow maps off until a story's light casts them, in the one filtering every renderer has. */
const SHADOW_MAP = { enabled: false, type: PCFShadowMap }

/** The scene background. Pixel checks compare against it (flat: no tone mapping, exact colours). */
export const BACKGROUND = '#1d2733'

export type Vec3 = [number, number, number]

export interface StageOptions {
  /** Camera position. The default frames one ~60-unit-tall Quake II model facing the camera. */
  camera?: Vec3
  /** Orbit target. */
  target?: Vec3
  fov?: number
  /** Height of the floor the soft shadow lies on (Quake II players stand at −24). `null`: no floor. */
  floor?: number | null
  /** three.js's renderer (the toolbar's `renderer` global). */
  renderer?: RendererKind
}

/**
 * The `<Canvas>` every story renders in: lights, orbit controls, a plain background and a Suspense
 * fallback that draws nothing into WebGL (so "the model is drawn" means the model, not a spinner).
 * `flat` (and `preserveDrawingBuffer`, or a copy of each frame on WebGPURenderer) lets the play functions read exact pixels. Text from the
 * scene (`<Overlay>`) is plain DOM laid over the canvas.
 */
export function Stage({
  children,
  camera = [40, 18, 92],
  target = [0, 2, 0],
  fov = 50,
  floor = -24,
  renderer = 'webgl',
}: StageOptions & { children?: ReactNode }) {
  const overlays = useMemo(() => createOverlayStore(), [])
  const entries = useSyncExternalStore(overlays.subscribe, overlays.snapshot)
  return (
    <OverlayContext.Provider value={overlays}>
      <div style={{ position: 'relative', width: '100%', height: '100vh', minHeight: 360, background: BACKGROUND }}>
        <Canvas
          flat
          dpr={[1, 2]}
          gl={canvasGl(renderer)}
          // R3F picks PCFSoftShadowMap by default, which three r18x no longer has (and warns of on WebGPU).
          shadows={SHADOW_MAP}
          camera={{ position: camera, fov, near: 1, far: 5000 }}
        >
          <color attach="background" args={[BACKGROUND]} />
          <hemisphereLight args={['#e8eeff', '#4d4034', 1.5]} />
          <directionalLight position={[60, 90, 80]} intensity={2.2} />
          <directionalLight position={[-70, 30, -60]} intensity={0.8} />
          {floor !== null && renderer === 'webgl' && (
            // A soft contact shadow where the models stand: the floor without a plane over the background.
            // (drei's contact shadow is GLSL: WebGPURenderer cannot run it, so its stages have no floor.)
            <ContactShadows position={[0, floor, 0]} scale={160} resolution={256} blur={2.5} far={80} opacity={0.55} frames={Infinity} />
          )}
          <OrbitControls makeDefault target={target} />
          <Suspense fallback={<Overlay>loading…</Overlay>}>{children}</Suspense>
        </Canvas>
        {entries.map(([id, entry]) => (
          <div key={id} role={entry.role} style={{ ...overlayStyle(entry), ...entry.style }}>
            {entry.children}
          </div>
        ))}
      </div>
    </OverlayContext.Provider>
  )
}

interface OverlayEntry {
  children: ReactNode
  /** Where, in fractions of the stage (0–1); the default stacks entries at the top left. */
  at?: { x: number; y: number }
  tone?: 'info' | 'error'
  role?: string
  style?: CSSProperties
}

function overlayStyle({ at, tone }: OverlayEntry): CSSProperties {
  return {
    position: 'absolute',
    ...(at ? { left: `${at.x * 100}%`, top: `${at.y * 100}%`, transform: 'translate(-50%, -50%)' } : { left: 8, top: 8 }),
    font: '12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace',
    color: tone === 'error' ? '#ffd2d2' : '#e6edf3',
    background: tone === 'error' ? 'rgba(120, 20, 20, 0.9)' : 'rgba(0, 0, 0, 0.55)',
    border: tone === 'error' ? '1px solid #ff6b6b' : 'none',
    borderRadius: 4,
    padding: '4px 8px',
    maxWidth: at ? 'min(360px, 44%)' : 'min(360px, 90%)',
    boxSizing: 'border-box',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    pointerEvents: 'none',
  }
}

interface OverlayStore {
  subscribe(listener: () => void): () => void
  snapshot(): readonly (readonly [string, OverlayEntry])[]
  set(id: string, entry: OverlayEntry): void
  delete(id: string): void
}

function createOverlayStore(): OverlayStore {
  const entries = new Map<string, OverlayEntry>()
  const listeners = new Set<() => void>()
  let snapshot: readonly (readonly [string, OverlayEntry])[] = []
  const changed = () => {
    snapshot = [...entries]
    for (const listener of listeners) listener()
  }
  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    snapshot: () => snapshot,
    set(id, entry) {
      entries.set(id, entry)
      changed()
    },
    delete(id) {
      if (entries.delete(id)) changed()
    },
  }
}

const OverlayContext = createContext<OverlayStore | null>(null)

/**
 * DOM text over the canvas, rendered from inside the scene (R3F bridges the stage's context into
 * the Canvas). Draws nothing into WebGL, so pixel checks see only the models.
 */
export function Overlay(props: OverlayEntry) {
  const store = useContext(OverlayContext)
  const id = useId()
  const { children, tone, role, style } = props
  // By value: callers write `at={{ x, y }}` inline, a new object every render.
  const x = props.at?.x
  const y = props.at?.y
  useLayoutEffect(() => {
    store?.set(id, { children, at: x === undefined || y === undefined ? undefined : { x, y }, tone, role, style })
  }, [store, id, children, x, y, tone, role, style])
  useLayoutEffect(() => () => store?.delete(id), [store, id])
  return null
}

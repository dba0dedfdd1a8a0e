import { useFrame, type ThreeElements } from '@react-three/fiber'
import { forwardRef, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react'
import {
  Frustum,
  Matrix4,
  MeshLambertMaterial,
  Sphere,
  type Camera,
  type ColorRepresentation,
  type Group,
  type Material,
  type Mesh,
  type Texture,
  type Vector3,
} from 'three'
import { advanceAnimation, createAnimationState, holdFrame, setAnimation, type AnimationState } from '../core/animation-state'
import { findAnimation, resolveAnimations, type AnimationSelector } from '../core/animations'
import { MD2Error } from '../core/errors'
import type { MD2Animation, MD2AnimationDef, MD2Model as MD2ModelData } from '../core/types'
import { createMD2Geometry, writeMD2Blend, writeMD2Frame, type MD2Blend } from '../three/MD2Geometry'
import { useMD2 } from './useMD2'
import { useSkinProp } from './useMD2Skin'

type GroupProps = Omit<ThreeElements['group'], 'ref' | 'scale' | 'children'>

export interface MD2ModelProps extends GroupProps {
  /** An MD2 file to load (Suspense; cached by URL). Give `url` or `model`. */
  url?: string
  /** An already parsed model (from `useMD2` or `parseMD2`), shared, never modified. */
  model?: MD2ModelData
  /** Animation to play: a name (case-insensitive), an index into the model's animations, or a frame range. */
  animation?: AnimationSelector
  /** An animation table replacing the model's own (e.g. from a `.anm` file via `parseAnimationTable`). */
  animationTable?: readonly MD2AnimationDef[]
  /** Keyframes per second; default: the animation's own (10 for Quake II). */
  fps?: number
  /** Playback rate multiplier. Default 1. */
  speed?: number
  /** Default true. When false the model holds its current pose and writes nothing. */
  playing?: boolean
  /** Default true. When false the animation stops on its last frame and calls `onAnimationEnd`. */
  loop?: boolean
  /** Blend between keyframes (default true); false snaps from keyframe to keyframe like a 10 Hz server. */
  interpolate?: boolean
  /** Show this one frame, still (a scrubber). Overrides `animation` while set. */
  frame?: number
  /**
   * The skin. A `Texture`; `null` for none; a number, an index into the model's own skin list
   * (`model.skins`); a string, a name from that list (looked up next to the model's URL: the path
   * as written, the file name alone, case variations, `.png`/`.jpg`/`.tga`/`.pcx` for names with no
   * extension) or else an image URL (`.pcx`, `.tga`, PNG, JPEG). A skin found nowhere shows a
   * magenta/black checkerboard and warns once with the URLs tried. Default: skin 0 when the model
   * names one and was loaded from a URL, else none. Switching skins keeps the old one on screen
   * until the new one has loaded, and never rebuilds the geometry.
   */
  skin?: string | number | Texture | null
  /** Replaces the default material. Not disposed by the component. */
  material?: Material
  /** Default material only. */
  wireframe?: boolean
  /** Default material only. */
  color?: ColorRepresentation
  /** Uniform or per-axis scale of the model (Quake II units are about an inch). */
  scale?: number | [number, number, number] | Vector3
  castShadow?: boolean
  receiveShadow?: boolean
  /** Called when a play-once animation (`loop={false}`) reaches its last frame. */
  onAnimationEnd?: (animation: MD2Animation) => void
  children?: ReactNode
}

/**
 * An animated MD2 model. The root is a `<group>` (the ref, position, rotation, events and any other
 * group props); its first child is the mesh. Each instance owns its position/normal buffers and
 * writes the CPU-blended frame into them in `useFrame`, allocating nothing per frame; instances of
 * one model share everything else.
 */
export const MD2Model = forwardRef<Group, MD2ModelProps>(function MD2Model({ url, model, ...props }, ref) {
  if (model) return <MD2ModelView ref={ref} model={model} {...props} />
  if (url !== undefined) return <MD2ModelFromUrl ref={ref} url={url} {...props} />
  throw new MD2Error('BAD_ARGUMENT', '<MD2Model> needs a `url` or a `model`')
})

/** `modelUrl`: where the model was loaded from (skin names are looked up next to it). */
type ViewProps = Omit<MD2ModelProps, 'url' | 'model'> & { model: MD2ModelData; modelUrl?: string }

const MD2ModelFromUrl = forwardRef<Group, Omit<MD2ModelProps, 'model'> & { url: string }>(function MD2ModelFromUrl(
  { url, ...props },
  ref,
) {
  const model = useMD2(url)
  return <MD2ModelView ref={ref} model={model} modelUrl={url} {...props} />
})

const warned = new Set<string>()
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return
  warned.add(key)
  console.warn(message)
}

function useAnimationList(model: MD2ModelData, table: readonly MD2AnimationDef[] | undefined): MD2Animation[] {
  return useMemo(() => {
    if (!table) return model.animations
    const warnings: string[] = []
    const list = resolveAnimations(model.frameNames, table, warnings)
    for (const warning of warnings) warnOnce(`${model.name}:${warning}`, `react-three-md2: ${model.name ?? 'model'}: ${warning}`)
    return list
  }, [model, table])
}

function selectAnimation(model: MD2ModelData, list: MD2Animation[], selector: AnimationSelector | undefined): MD2Animation {
  const fallback = list[0] ?? { name: 'all', start: 0, end: model.header.numFrames - 1, fps: 10 }
  if (selector === undefined) return fallback
  const found = findAnimation({ animations: list, header: model.header }, selector)
  if (found) return found
  warnOnce(
    `${model.name}:${String(selector)}`,
    `react-three-md2: ${model.name ?? 'model'} has no animation ${JSON.stringify(selector)}; playing "${fallback.name}". ` +
      `Available: ${list.map((animation) => animation.name).join(', ')}`,
  )
  return fallback
}

function selectorKey(selector: AnimationSelector | undefined): string {
  return typeof selector === 'object' ? `${selector.start}-${selector.end}-${selector.fps}` : String(selector)
}

/**
 * The view frustum, shared by every instance: rebuilt only when the camera or its matrices change,
 * so N instances pay for one frustum per frame, not N (about 0.3 µs saved per instance).
 */
const cull = {
  camera: null as Camera | null,
  /** projectionMatrix then matrixWorldInverse elements the frustum was built from. */
  key: new Float64Array(32),
  frustum: new Frustum(),
  matrix: new Matrix4(),
  sphere: new Sphere(),
}

function sharedFrustum(camera: Camera): Frustum {
  const projection = camera.projectionMatrix.elements
  const view = camera.matrixWorldInverse.elements
  const key = cull.key
  let same = cull.camera === camera
  for (let i = 0; same && i < 16; i++) same = key[i] === projection[i] && key[16 + i] === view[i]
  if (!same) {
    cull.camera = camera
    key.set(projection)
    key.set(view, 16)
    cull.frustum.setFromProjectionMatrix(cull.matrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse))
  }
  return cull.frustum
}

/** Whether the mesh's all-frames sphere (with a margin for last frame's transforms) is in view. */
function inView(mesh: Mesh, camera: Camera): boolean {
  if (!mesh.frustumCulled) return true
  const sphere = mesh.geometry.boundingSphere
  if (!sphere) return true
  const frustum = sharedFrustum(camera)
  const bounds = cull.sphere.copy(sphere).applyMatrix4(mesh.matrixWorld)
  bounds.radius *= 1.25
  return frustum.intersectsSphere(bounds)
}

const MD2ModelView = forwardRef<Group, ViewProps>(function MD2ModelView(
  {
    model,
    animation,
    animationTable,
    fps,
    speed = 1,
    playing = true,
    loop = true,
    interpolate = true,
    frame,
    skin,
    modelUrl,
    material,
    wireframe = false,
    color,
    scale,
    castShadow,
    receiveShadow,
    onAnimationEnd,
    children,
    ...groupProps
  },
  ref,
) {
  const texture = useSkinProp(model, skin, modelUrl)
  const list = useAnimationList(model, animationTable)
  const selected = selectAnimation(model, list, animation)

  const needsNormals = !(material && 'isMeshBasicMaterial' in material)
  const geometry = useMemo(() => createMD2Geometry(model, { normals: needsNormals }), [model, needsNormals])
  useEffect(() => () => geometry.dispose(), [geometry])

  const ownMaterial = useMemo(() => (material ? undefined : new MeshLambertMaterial()), [material])
  useEffect(() => () => ownMaterial?.dispose(), [ownMaterial])
  useLayoutEffect(() => {
    if (!ownMaterial) return
    ownMaterial.map = texture ?? null
    ownMaterial.wireframe = wireframe
    ownMaterial.color.set(color ?? 0xffffff)
    ownMaterial.needsUpdate = true
  }, [ownMaterial, texture, wireframe, color])

  const meshRef = useRef<Mesh>(null)
  const stateRef = useRef<AnimationState | null>(null)
  const written = useRef<MD2Blend>({ from: -1, to: -1, t: 0.5 })
  const endRef = useRef(onAnimationEnd)
  endRef.current = onAnimationEnd

  const effectiveFps = fps ?? selected.fps
  const animationKey = `${selected.name}:${selected.start}-${selected.end}:${selectorKey(animation)}`
  useLayoutEffect(() => {
    const range = { start: selected.start, end: selected.end, fps: effectiveFps }
    if (stateRef.current) setAnimation(stateRef.current, range, loop)
    else stateRef.current = createAnimationState(range, loop)
    // Show the first frame right away, before any tick (a new geometry starts on frame 0).
    const first = frame === undefined ? selected.start : validFrame(model, frame)
    writeMD2Frame(geometry, model, first, first, 0)
    Object.assign(written.current, { from: first, to: first, t: 0 })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key covers `selected`; `frame` is applied per tick
  }, [model, geometry, animationKey, loop])
  useLayoutEffect(() => {
    if (stateRef.current) stateRef.current.fps = effectiveFps
  }, [effectiveFps])

  const stillFrame = frame === undefined ? undefined : validFrame(model, frame)

  useFrame((rootState, delta) => {
    const state = stateRef.current
    const mesh = meshRef.current
    if (!state || !mesh) return
    if (stillFrame !== undefined) holdFrame(state, stillFrame)
    else if (playing && advanceAnimation(state, delta, speed)) endRef.current?.(selected)

    const t = interpolate ? state.interpolation : 0
    const last = written.current
    if (last.from === state.currentFrame && last.to === state.nextFrame && last.t === t) return
    if (!inView(mesh, rootState.camera)) return
    last.from = state.currentFrame
    last.to = state.nextFrame
    last.t = t
    // The blend goes by reference: a fractional t passed by value would be boxed, 16 bytes a call.
    writeMD2Blend(geometry, model, last)
  })

  return (
    <group ref={ref} {...groupProps}>
      <mesh
        ref={meshRef}
        geometry={geometry}
        material={material ?? ownMaterial}
        scale={scale}
        castShadow={castShadow}
        receiveShadow={receiveShadow}
        name={model.name ?? 'md2'}
      />
      {children}
    </group>
  )
})

/** A frame outside the model is replaced by frame 0, as Quake II does, with a warning. */
function validFrame(model: MD2ModelData, frame: number): number {
  if (Number.isInteger(frame) && frame >= 0 && frame < model.header.numFrames) return frame
  warnOnce(`${model.name}:frame:${frame}`, `react-three-md2: ${model.name ?? 'model'} has no frame ${frame} (0–${model.header.numFrames - 1}); showing frame 0`)
  return 0
}

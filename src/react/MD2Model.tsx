import { useFrame, useThree, type ThreeElements } from '@react-three/fiber'
import { forwardRef, useCallback, useDeferredValue, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react'
import {
  MeshBasicMaterial,
  MeshLambertMaterial,
  type ColorRepresentation,
  type Group,
  type Material,
  type Mesh,
  type Texture,
  type Vector3,
} from 'three'
import type { AnimationSelector } from '../core/format/animationTable.js'
import type { MD2AnimationController } from '../core/animation/MD2AnimationController.js'
import { MD2Error } from '../core/MD2Error.js'
import { clampPoseFrames, copyPose, createPose, posesEqual, type MD2Pose } from '../core/animation/pose.js'
import { fitStanding, type MD2Origin } from '../core/format/standingBounds.js'
import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import type { MD2Animation, MD2AnimationDef, MD2ModelData } from '../core/format/types.js'
import { warnOnce } from '../core/warnOnce.js'
import { createMD2Geometry, resetMD2Bounds, writeMD2Pose, type WriteMD2PoseOptions } from '../three/mesh/MD2Geometry.js'
import { webgpuMaterials } from '../three/materials/webgpuMaterials.js'
import { inView } from '../three/mesh/frustum.js'
import {
  MD2LookContext,
  MD2ModelContext,
  useMD2ModelContext,
  type MD2LookOwner,
  type MD2ModelContextValue,
  type MD2PoseLayer,
} from './MD2ModelContext.js'
import { checkControllerFrames, checkProps } from './checkProps.js'
import { checkedTimeout } from './loading/loadTimeout.js'
import { useArchiveUrl } from './loading/useArchiveUrl.js'
import { useMD2, useMD2Hold } from './loading/useMD2.js'
import { useSkinProp } from './loading/useSkinProp.js'
import { useOwned } from './useOwned.js'
import { ANIMATION_FRAME_PRIORITY, splitAnimationProps, useOwnController } from './useMD2Animation.js'

// Bundlers replace `process.env.NODE_ENV` with a string, as React and R3F need them to: production builds leave
// the checks of props, and their code, out (the test is written out at each call: a minifier folds it only there).
declare const process: { env: { NODE_ENV?: string } }

type GroupProps = Omit<ThreeElements['group'], 'ref' | 'scale' | 'children'>

/** Anything that says what to draw: `useMD2Animation`, `usePlayerAnimation`, or your own. */
export interface MD2PoseSource {
  readonly pose: Readonly<MD2Pose>
  /** Frames a model must have for this source to play it (`usePlayerAnimation`'s: a Quake II player's 198). */
  readonly minFrames?: number
}

export interface MD2ModelProps extends GroupProps {
  /** An MD2 file to load (Suspense; cached by URL). Give `url` or `model`. */
  url?: string
  /**
   * Milliseconds the model may take to load before the load fails with `LOAD_FAILED`
   * (to the error boundary) and leaves the cache, so a later mount tries again. Default:
   * `setLoadTimeout`'s, 30 s; `Infinity` waits forever.
   */
  timeout?: number
  /**
   * The files next to the model, as a build-time listing (`['tris.md2', 'skin.pcx', …]`): skin names are
   * looked for only among them, so a name written without its extension or in another case makes no
   * request that misses (no 404 in the console).
   */
  files?: readonly string[]
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
  /** Play the animation backwards. */
  reverse?: boolean
  /** Blend between keyframes (default true); false snaps from keyframe to keyframe like a 10 Hz server. */
  interpolate?: boolean
  /** Show this frame, still (a scrubber); fractional frames blend their two neighbours. Overrides `animation` while set. */
  frame?: number
  /** Seconds over which a change of `animation` fades from the pose shown into the new animation. Default 0 (a cut, as in Quake II). */
  crossfade?: number
  /**
   * Show what another controller says instead of animating by props: `useMD2Animation(model)`,
   * `usePlayerAnimation(model)`, or anything with a `pose`.
   */
  controller?: MD2PoseSource
  /** Receives this model's own animation controller (`play`, `pause`, `frame`, `progress`…). */
  controllerRef?: Ref<MD2AnimationController>
  /**
   * Inside another `<MD2Model>`: show exactly the parent's frames, interpolation and crossfade every
   * frame (a weapon in a player's hand), whatever this model's own animation props say. Frames the
   * parent has and this model lacks show this model's last frame, with a one-time warning.
   */
  sync?: boolean
  /**
   * Named points that move with the animation, for `<MD2Attach tag="…">` children: UFO:AI tags, parsed
   * (`useMD2Tags('body.tag')` loads and caches a `.tag` file with Suspense; `parseMD2Tags` reads bytes).
   */
  tags?: MD2Tags
  /**
   * The skin. A `Texture`; `null` for none; a number, an index into the model's own skin list
   * (`model.skins`); a string, a name from that list (looked up next to the model's URL: the path
   * as written, the file name alone, case variations, `.png`/`.jpg`/`.tga`/`.pcx` for names with no
   * extension) or else an image URL (`.pcx`, `.tga`, PNG, JPEG). A skin found nowhere shows a
   * magenta/black checkerboard, warns once with the URLs tried and calls `onSkinError`; a bare file name
   * (`khorne.pcx`) is looked for next to the model, a path or URL is used as given. Default: skin 0 when the model
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
  /** Uniform or per-axis scale of the model (Quake II units are about an inch); multiplies `height`'s. */
  scale?: number | [number, number, number] | Vector3
  /**
   * How tall the character stands, in world units (`1.8` for a person in metres): the model is scaled uniformly
   * so that its standing frame (the first frame of its `stand` animation, else frame 0, as `getStandingBounds`
   * measures it) is this tall. A `scale` multiplies it. Default: the file's own units (a Quake II player stands
   * about 50–56 tall). Anything but a positive number is ignored, with a warning in development.
   */
  height?: number
  /**
   * What the position places: `"quake2"` (the default), the file's own origin, where Quake II puts a player's
   * (the feet some 24 units below it); `"feet"`, the lowest point of the standing frame, so a character at
   * y = 0 stands on a floor at y = 0. The body, what is drawn in it (a synced weapon, `<MD2Attach>` points)
   * and its looks (`<MD2BlobShadow>`, `<MD2Shell>`) move together.
   */
  origin?: MD2Origin
  castShadow?: boolean
  receiveShadow?: boolean
  /** Translucency (`RF_TRANSLUCENT` with the entity's alpha), 0–1. Default material only. Default 1. */
  opacity?: number
  /**
   * Whether the vertices are written while the model is out of the camera's view: for its shadow-map
   * shadow, a second camera (a mini-map, a `CubeCamera`), or a clone. The animation clock runs either
   * way, so a model coming back into view shows the pose of the moment, with no catch-up. Default: when
   * it casts shadows (`castShadow`), or when `frustumCulled` is false.
   */
  animateOffscreen?: boolean
  /** A keyframe was reached (footsteps, muzzle flashes): once per keyframe, in order, at any frame rate. */
  onFrame?: (frame: number, animation: MD2Animation) => void
  /** A looping animation went round. */
  onLoop?: (animation: MD2Animation) => void
  /** A play-once animation (`loop={false}`) reached its last frame. */
  onAnimationEnd?: (animation: MD2Animation) => void
  /**
   * A skin failed (missing, not an image, damaged): the model is drawn with the checkerboard, as
   * Quake II draws its "notexture", and this says why. The error boundary is for models only.
   */
  onSkinError?: (error: MD2Error) => void
  /**
   * Drawn in the model's space: scaled with it, so synced models (a weapon in the hand) and
   * `<MD2Attach>` points line up with the mesh.
   */
  children?: ReactNode
}

/**
 * An animated MD2 model. The root is a `<group>` (the ref, position, rotation, events and any other
 * group props); its first child is the mesh. Animation comes from its props, from a `controller`,
 * or from the parent model (`sync`); `controllerRef` gives code the model's own controller. Each
 * instance owns its position/normal buffers and writes the CPU-blended pose into them in
 * `useFrame`, allocating nothing per frame; instances of one model share everything else.
 */
export const MD2Model = forwardRef<Group, MD2ModelProps>(function MD2Model({ url, model, ...props }, ref) {
  if (process.env.NODE_ENV !== 'production') checkProps('MD2Model', props, model)
  if (model) return <MD2ModelView ref={ref} model={model} {...props} />
  if (url !== undefined) return <MD2ModelFromUrl ref={ref} url={url} {...props} />
  throw new MD2Error('BAD_ARGUMENT', '<MD2Model> needs a `url` or a `model`')
})

/** `modelUrl`: where the model was loaded from (skin names are looked up next to it). */
type ViewProps = Omit<MD2ModelProps, 'url' | 'model'> & { model: MD2ModelData; modelUrl?: string }

const MD2ModelFromUrl = forwardRef<Group, Omit<MD2ModelProps, 'model'> & { url: string }>(function MD2ModelFromUrl(
  { url, timeout, ...props },
  ref,
) {
  // A new URL keeps the current model on screen until it has loaded; meanwhile the new URL is held
  // (a later change aborts it) and the shown one stays held until replaced.
  const shown = useDeferredValue(url)
  const options = { timeout: checkedTimeout(timeout, '<MD2Model timeout>') }
  useMD2Hold(url, options)
  const model = useMD2(shown, options)
  // Inside an <MD2Archive>, where the model was loaded from (its skins are looked for next to it).
  const modelUrl = useArchiveUrl(shown)
  return <MD2ModelView ref={ref} model={model} modelUrl={modelUrl} timeout={timeout} {...props} />
})

const MD2ModelView = forwardRef<Group, ViewProps>(function MD2ModelView(props, ref) {
  const [animationOptions, viewProps] = splitAnimationProps(props)
  const {
    model,
    controller,
    controllerRef,
    sync = false,
    tags,
    skin,
    modelUrl,
    material,
    wireframe = false,
    color,
    scale,
    height,
    origin,
    castShadow,
    receiveShadow,
    opacity = 1,
    animateOffscreen,
    onSkinError,
    // The load's: done by the time the model is shown.
    timeout: _timeout,
    files,
    children,
    ...groupProps
  } = viewProps
  const { frame, animation } = animationOptions
  const tagData = tags
  checkTagFrames(model, tagData)
  // A material of the app's own draws its own map: no skin is looked for (nor missed).
  const texture = useSkinProp(model, material && skin === undefined ? null : skin, { modelUrl, files, onSkinError })
  if (process.env.NODE_ENV !== 'production') checkControllerFrames(model, controller)
  const parent = useMD2ModelContext()
  // A mistake of code, as the props' checks: development builds say so.
  if (process.env.NODE_ENV !== 'production' && sync && !parent) {
    warnOnce(`${model.name}:sync`, `${model.name ?? 'model'}: \`sync\` needs an enclosing <MD2Model>; animating by its own props`)
  }

  // The model's own animation, used unless a controller or a parent drives it.
  const ownController = useOwnController(model, animationOptions, controllerRef)
  const source: MD2PoseSource = sync && parent ? parent : (controller ?? ownController)
  const ownsAnimation = source === ownController

  // Lit the Quake II way while an <MD2Quake2Lighting> child is registered: vertex colours on an unlit material.
  const [quake2, setQuake2] = useState(false)
  // Bounds that follow the pose while an <MD2PoseBounds> child is registered; else the all-frames box.
  const [boxed, setBoxed] = useState(false)
  const needsNormals = !quake2 && !(material && 'isMeshBasicMaterial' in material)
  const geometry = useOwned(() => createMD2Geometry(model, { normals: needsNormals, colors: quake2 }), [model, needsNormals, quake2])

  const alpha = checkedOpacity(model, opacity)

  const ownMaterial = useOwned(
    () => (material ? undefined : quake2 ? new MeshBasicMaterial({ vertexColors: true }) : new MeshLambertMaterial()),
    [material, quake2],
  )
  useLayoutEffect(() => {
    if (!ownMaterial) return
    ownMaterial.map = texture ?? null
    ownMaterial.wireframe = wireframe
    ownMaterial.color.set(color ?? 0xffffff)
    ownMaterial.transparent = alpha < 1
    if (alpha < 1) webgpuMaterials()?.blendInSRGB(ownMaterial)
    ownMaterial.opacity = alpha
    ownMaterial.needsUpdate = true
  }, [ownMaterial, texture, wireframe, color, alpha])

  const meshRef = useRef<Mesh>(null)
  /** The pose this model shows: its source's, with frames clamped to this model's. */
  const pose = useMemo(() => createPose(0), [])
  /** The pose last written into the buffers (from −1: nothing written yet). */
  const written = useMemo(() => createPose(-1), [])

  // Controllers move on before any model draws, so a parent, its synced children and its
  // attachments all read the same pose this frame.
  useFrame((_, delta) => {
    if (ownsAnimation) ownController.update(delta)
  }, ANIMATION_FRAME_PRIORITY)

  const clock = useMemo(() => ({ seconds: 0 }), [])
  /** The layers drawn from this pose in this model's pass (`<MD2Shell>`, `<MD2BlobShadow>`), one of each kind. */
  const layers = useMemo<Partial<Record<MD2PoseLayer['kind'], MD2PoseLayer>>>(() => ({}), [])
  /** What each write outputs besides the body, updated in place (the per-frame path allocates nothing). */
  const outputs = useMemo<WriteMD2PoseOptions>(() => ({}), [])
  const invalidate = useThree((state) => state.invalidate)
  const addLayer = useCallback(
    (layer: MD2PoseLayer) => {
      // A mistake of code: development builds say so.
      if (process.env.NODE_ENV !== 'production' && layers[layer.kind])
        warnOnce(
          `${model.name}:layer:${layer.kind}`,
          `${model.name ?? 'model'}: two ${LAYER_NAMES[layer.kind]} in one <MD2Model>; drawing the last`,
        )
      layers[layer.kind] = layer
      if (layer.kind === 'light') setQuake2(true)
      if (layer.kind === 'bounds') setBoxed(true)
      // Written with the next pose, even a still one.
      written.from = -1
      invalidate()
      return () => {
        if (layers[layer.kind] !== layer) return
        layers[layer.kind] = undefined
        if (layer.kind === 'light') setQuake2(false)
        if (layer.kind === 'bounds') setBoxed(false)
        written.from = -1
        invalidate()
      }
    },
    [layers, written, invalidate, model],
  )
  useFrame((rootState, delta) => {
    const mesh = meshRef.current
    if (!mesh) return
    clock.seconds += delta
    clampPoseFrames(copyPose(pose, source.pose), model)
    const moved = placeLayers(layers, outputs, mesh, clock)
    if (!moved && posesEqual(written, pose)) return
    if (!(animateOffscreen ?? (castShadow === true || groupProps.frustumCulled === false)) && !inView(mesh, rootState.camera)) return
    copyPose(written, pose)
    writeMD2Pose(geometry, written, outputs)
  })

  // Show the pose right away, before any tick (a new geometry starts on frame 0); layers have registered by now.
  useLayoutEffect(() => {
    clampPoseFrames(copyPose(pose, source.pose), model)
    copyPose(written, pose)
    if (meshRef.current) placeLayers(layers, outputs, meshRef.current, clock)
    // The all-frames box unless the pose's is asked for (then written with the pose).
    if (!boxed) resetMD2Bounds(geometry, model)
    writeMD2Pose(geometry, written, outputs)
  }, [geometry, layers, model, source, pose, written, clock, outputs, frame, animation, boxed])

  // Children read the source's live pose (not this model's clamped copy, which is written later in the frame).
  const context = useMemo<MD2ModelContextValue & MD2LookOwner>(
    () => ({ component: '<MD2Model>', model, pose: source.pose, tags: tagData, addLayer }),
    [model, source, tagData, addLayer],
  )

  // The body and the group of its children share one placement: followers stay on the body whatever it is.
  const body = bodyPlacement(model, scale, height, origin)
  return (
    <group ref={ref} {...groupProps}>
      <mesh
        ref={meshRef}
        geometry={geometry}
        material={material ?? ownMaterial}
        {...body}
        castShadow={castShadow}
        receiveShadow={receiveShadow}
        name={model.name ?? 'md2'}
      />
      {children !== undefined && (
        // The model's space (scaled like the mesh), so synced models and attachments line up with it.
        <group {...body} name={`${model.name ?? 'md2'} children`}>
          <MD2ModelContext.Provider value={context}>
            <MD2LookContext.Provider value={context}>{children}</MD2LookContext.Provider>
          </MD2ModelContext.Provider>
        </group>
      )}
    </group>
  )
})

/**
 * The body's scale and position in the root group: the user's `scale` times `height`'s (`fitStanding`), lifted
 * so that `origin` is at the root (the lift under the user's Y scale, as the body is). Without either prop, the
 * user's `scale` alone.
 */
function bodyPlacement(
  model: MD2ModelData,
  scale: MD2ModelProps['scale'],
  height: number | undefined,
  origin: MD2Origin | undefined,
): { scale: MD2ModelProps['scale']; position: [number, number, number] } {
  // Always both, so that a size or lift taken away goes back to none (R3F leaves an undefined prop as it was).
  if (height === undefined && origin === undefined) return { scale: scale ?? 1, position: NO_LIFT }
  const fit = fitStanding(model, height, origin)
  const [x, y, z] =
    scale === undefined
      ? [1, 1, 1]
      : typeof scale === 'number'
        ? [scale, scale, scale]
        : Array.isArray(scale)
          ? scale
          : [scale.x, scale.y, scale.z]
  return { scale: [x * fit.scale, y * fit.scale, z * fit.scale], position: [0, y * fit.lift, 0] }
}

const NO_LIFT: [number, number, number] = [0, 0, 0]

const LAYER_NAMES: Record<MD2PoseLayer['kind'], string> = {
  shell: '<MD2Shell>',
  shadow: '<MD2BlobShadow>',
  light: '<MD2Quake2Lighting>',
  bounds: '<MD2PoseBounds>',
}

/**
 * Hands the registered layers to the write (`outputs`) and places them for the body's world matrix (a blob
 * shadow and Quake II's light follow the model's yaw, a glow the clock): returns whether one changed, so that
 * the pose is written even when it is still.
 */
function placeLayers(
  layers: Partial<Record<MD2PoseLayer['kind'], MD2PoseLayer>>,
  outputs: WriteMD2PoseOptions,
  body: Mesh,
  clock: { readonly seconds: number },
): boolean {
  const { shell, shadow, light, bounds } = layers
  outputs.bounds = bounds?.box
  outputs.shell = shell?.geometry
  outputs.shadow = shadow?.geometry && shadow.parameters ? (shadow as Required<Pick<MD2PoseLayer, 'geometry' | 'parameters'>>) : undefined
  outputs.light = light?.light
  // Each placed every frame (no short-circuit): a layer's state must follow the body whatever the others did.
  const shellMoved = shell?.place?.(body, clock) ?? false
  const shadowMoved = shadow?.place?.(body, clock) ?? false
  const relit = light?.place?.(body, clock) ?? false
  return shellMoved || shadowMoved || relit
}

/** Models and tag files whose frame counts were found to differ (warned once per pair). */
const tagFramesWarned = new WeakMap<MD2ModelData, WeakSet<MD2Tags>>()

function checkTagFrames(model: MD2ModelData, tags: MD2Tags | undefined): void {
  if (!tags || tags.numFrames === model.header.numFrames) return
  let seen = tagFramesWarned.get(model)
  if (!seen) tagFramesWarned.set(model, (seen = new WeakSet()))
  if (seen.has(tags)) return
  seen.add(tags)
  warnOnce(
    `${model.name}:tags:${tags.name}`,
    `${tags.name ?? 'tags'} has ${tags.numFrames} frames and ${model.name ?? 'the model'} ${model.header.numFrames}; frames past the tags' last use its last`,
  )
}

/** An opacity from props: 0–1, else 1 with a one-time warning. */
function checkedOpacity(model: MD2ModelData, value: number): number {
  if (Number.isFinite(value) && value >= 0 && value <= 1) return value
  warnOnce(`${model.name}:opacity:${String(value)}`, `${model.name ?? 'model'}: opacity={${String(value)}} is not from 0 to 1; using 1`)
  return 1
}

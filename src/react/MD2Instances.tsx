import { useFrame, type ThreeElements } from '@react-three/fiber'
import {
  createContext,
  forwardRef,
  useContext,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  use,
  type ReactNode,
  type Ref,
} from 'react'
import type { Group, MeshBasicMaterial, MeshLambertMaterial } from 'three'
import { MD2Error } from '../core/MD2Error.js'
import type { MD2Origin } from '../core/format/standingBounds.js'
import type { MD2ModelData } from '../core/format/types.js'
import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import { warnOnce } from '../core/warnOnce.js'
import { MD2Crowd, type MD2CrowdOptions } from '../three/crowd/MD2Crowd.js'
import { MD2CrowdBase } from '../three/crowd/MD2CrowdBase.js'
import { MD2CrowdInstance } from '../three/crowd/MD2CrowdInstance.js'
import type { followCrowd as followCrowdFunction } from '../three/crowd/followCrowd.js'
import { loadCrowdQueries } from '../three/crowd/loadCrowdQueries.js'
import type { MD2PoseSource } from './MD2Model.js'
import { crowdLookSupport, type InstanceSlot } from './MD2ModelContext.js'
import { MD2InstanceContext } from './MD2InstanceContext.js'
import { checkProps } from './checkProps.js'
import { useOwned } from './useOwned.js'
import { hasPointerHandlers, useInstanceEvents } from './instanceEvents.js'
import { useArchiveUrl } from './loading/useArchiveUrl.js'
import { useMD2 } from './loading/useMD2.js'
import { useMaxTextureSize } from './loading/useMaxTextureSize.js'
import { useSkinProp, type MD2SkinProp } from './loading/useSkinProp.js'
import {
  ANIMATION_FRAME_PRIORITY,
  splitAnimationProps,
  useAnimationList,
  useMD2AnimationOptions,
  type UseMD2AnimationOptions,
} from './useMD2Animation.js'

// Bundlers replace `process.env.NODE_ENV` with a string, as React and R3F need them to: production builds leave
// the checks of props, and their code, out (the test is written out at each call: a minifier folds it only there).
declare const process: { env: { NODE_ENV?: string } }

/** Options of `useMD2Crowd`: the crowd's, with the device's texture limit filled in. */
export type UseMD2CrowdOptions = Omit<MD2CrowdOptions, 'maxTextureSize'>

/**
 * The imperative path for the largest crowds: an `MD2Crowd` of `model` (one draw, animated on the GPU)
 * that moves on and culls itself every frame; place it with `<primitive object={crowd} />` and drive it
 * with `crowd.setTransform(i, …)`, `crowd.play(i, …)`, `crowd.showFrame(i, …)`: typed arrays, no React
 * component or object per instance, nothing allocated per frame. Re-created when the model, limit,
 * lighting or decode change; disposed on unmount.
 */
export function useMD2Crowd(model: MD2ModelData, options: UseMD2CrowdOptions): MD2Crowd {
  return useCrowd(MD2Crowd, model, options)
}

/**
 * `useMD2Crowd` with the class made: `MD2Crowd` (with its looks), or `MD2CrowdBase` (none: `<MD2Instances>` in
 * an app that imports no look), typed as `MD2Crowd` (the same members; the look ones throw on a base).
 */
function useCrowd(Crowd: typeof MD2CrowdBase, model: MD2ModelData, options: UseMD2CrowdOptions): MD2Crowd {
  const maxTextureSize = useMaxTextureSize(4096)
  const { limit, lighting, opacity } = options
  const translucent = opacity !== undefined && opacity < 1
  const shell = options.shell === undefined ? undefined : JSON.stringify(options.shell)
  // Made once (a crowd holds a share of the model's GPU frames), disposed on unmount, whatever StrictMode does.
  const crowd: MD2Crowd = useOwned(
    () => new Crowd(model, { ...options, maxTextureSize }),
    // The look below is applied in place; these need new buffers or shaders, or set every instance's.
    [Crowd, model, limit, lighting, translucent, shell, options.shadow, options.decode, maxTextureSize],
  )
  // Who poses its instances changes no buffer or shader: set in place.
  crowd.pose = options.pose ?? 'auto'
  // A crowd made without its looks wears none: its look members throw.
  const dressed = Crowd !== MD2CrowdBase
  // In an effect: an instance's `<MD2BlobShadow floor>` sets it too, and a render of the crowd keeps it.
  useLayoutEffect(() => {
    if (dressed) crowd.shadowFloor = options.shadowFloor
  }, [crowd, dressed, options.shadowFloor])
  useLayoutEffect(() => {
    const material = crowd.material as MeshLambertMaterial | MeshBasicMaterial
    material.map = options.map ?? null
    material.opacity = options.opacity ?? 1
    material.needsUpdate = true
  }, [crowd, options.map, options.opacity])
  const { shadelight, minlight, fullbright, glow } = options
  const level = typeof shadelight === 'number' || shadelight === undefined ? shadelight : shadelight.join()
  useLayoutEffect(() => {
    if (dressed) crowd.setLighting({ shadelight, minlight, fullbright, glow })
    // `level` stands for the shadelight by value (a new array each render is the same light).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [crowd, dressed, level, minlight, fullbright, glow])
  useFrame((state, delta) => crowd.update(delta, state.camera))
  return crowd
}

/** What an `<MD2Instances>` tells what is inside it: its crowd, its instance slots (for `<MD2Instance>`). */
interface CrowdSlots {
  crowd: MD2Crowd
  /** The `<MD2Instance>` control at each claimed index, so the crowd's loop and end events reach it. */
  controls: (MD2CrowdInstance | undefined)[]
  claim(): number
  free(i: number): void
}

const CrowdContext = createContext<CrowdSlots | null>(null)
/**
 * A crowd's `height` and `origin`, which its instances' groups do not carry (the crowd composes them in), for what an
 * instance tells its children (`MD2InstanceContext`). Apart from `CrowdContext`: when they change, the instances
 * re-render, while the slots stay the same object (their claim and free effects do not run again).
 */
const CrowdStandingContext = createContext<{ height?: number; origin?: MD2Origin }>({})

let followCrowdModule: Promise<typeof followCrowdFunction> | undefined
/** The follower chain's code, loaded once on demand: crowds that never follow do not ship it. */
const loadFollowCrowd = () => (followCrowdModule ??= import('../three/crowd/followCrowd.js').then((module) => module.followCrowd))

export interface MD2InstancesProps extends Omit<ThreeElements['group'], 'ref' | 'children'> {
  /** An MD2 file to load (Suspense; cached by URL), or `model`. */
  url?: string
  model?: MD2ModelData
  /**
   * Most instances at once (default 1,000): buffers are sized once. `0` is an empty crowd: nothing drawn, and
   * an `<MD2Instance>` inside is past the limit, as one too many in any crowd.
   */
  limit?: number
  /** As `<MD2Model skin>`: an index or name among the model's skins, a URL, a texture, or null. */
  skin?: MD2SkinProp
  /** As `<MD2Model timeout>`: milliseconds `url` may take to load before it fails with `LOAD_FAILED`. */
  timeout?: number
  /** As `<MD2Model files>`: the files next to the model, so skin names are looked for only among them. */
  files?: readonly string[]
  /** As `<MD2Model onSkinError>`: a skin that failed to load (the checkerboard is drawn, warned once). */
  onSkinError?: (error: MD2Error) => void
  opacity?: number
  castShadow?: boolean
  receiveShadow?: boolean
  /**
   * `"compute"`: on real WebGPU, blend the poses in a compute pass once a frame into storage the draw
   * reads (32 bytes per MD2 vertex per instance of the limit); elsewhere the vertex shader blends, as with
   * `"vertex"`, the default. A follower takes its leader's unless given its own.
   */
  decode?: 'vertex' | 'compute'
  /**
   * Who works each instance's pose out: `"shader"` (from its stored row: nothing per instance per frame on the
   * CPU), `"cpu"` (the instances in view, every frame: each vertex only decodes), or `"auto"` (the default): the
   * shader, but the CPU where the renderer draws in software (SwiftShader, llvmpipe), where every vertex is shaded
   * on the CPU. A follower takes its leader's unless given its own.
   */
  pose?: 'auto' | 'shader' | 'cpu'
  /**
   * Inside another `<MD2Instances>`: draw this model on each of its instances (a weapon in every hand),
   * with exactly its frames, as `<MD2Model sync>` (frames this model lacks show its last, warned once).
   */
  sync?: boolean
  /**
   * Inside another `<MD2Instances tags>`: place this model on that tag of each instance (`tag_head`,
   * `tag_rweapon`, or the tag's index), for the instance's pose, as `<MD2Attach>`. Without `sync`, its
   * instances keep their own animation (frame 0 unless played through the ref).
   */
  tag?: string | number
  /** This model's UFO:AI tags (`useMD2Tags('body.tag')`, or `parseMD2Tags` output), for `tag` followers inside. */
  tags?: MD2Tags
  /**
   * As `<MD2Model height>`: how tall every instance stands, in world units (an instance's `scale` multiplies it).
   * A follower (`sync`, `tag`) is drawn as its leader places its instances, and takes the leader's.
   */
  height?: number
  /** As `<MD2Model origin>`: `"feet"` puts every instance's feet at its position; `"quake2"` (the default), the file's origin. */
  origin?: MD2Origin
  /**
   * `<MD2Instance>` elements, followers (`<MD2Instances sync>`, `tag`), the looks every instance wears
   * (`<MD2Shell>`, `<MD2BlobShadow floor>`, `<MD2Quake2Lighting>`, drawn by the crowd in one draw each; a
   * follower wears its leader's) and anything else.
   */
  children?: ReactNode
}

/**
 * Instanced rendering of one model, as drei's `<Instances>`: every `<MD2Instance>` inside is one
 * instance of a single draw call, animated on the GPU from the file's own frame bytes. Each instance
 * takes `<MD2Model>`'s animation props and its own transform. The ref is the `MD2Crowd` (an `InstancedMesh`).
 * An `<MD2Instances sync>` or `tag` inside draws another model on every instance (`followCrowd`).
 */
export const MD2Instances = forwardRef<MD2Crowd, MD2InstancesProps>(function MD2Instances({ url, model, ...props }, ref) {
  if (process.env.NODE_ENV !== 'production') checkProps('MD2Instances', props, model)
  if (model) return <InstancesView ref={ref} model={model} {...props} />
  if (url !== undefined) return <InstancesFromUrl ref={ref} url={url} {...props} />
  throw new MD2Error('BAD_ARGUMENT', '<MD2Instances> needs a `url` or a `model`')
})

const InstancesFromUrl = forwardRef<MD2Crowd, Omit<MD2InstancesProps, 'model'> & { url: string }>(function InstancesFromUrl(
  { url, timeout, ...props },
  ref,
) {
  // Checked by useMD2 (a bad one warns once and the default is used).
  const model = useMD2(url, { timeout })
  const modelUrl = useArchiveUrl(url)
  return <InstancesView ref={ref} model={model} modelUrl={modelUrl} {...props} />
})

const InstancesView = forwardRef<MD2Crowd, Omit<MD2InstancesProps, 'url'> & { model: MD2ModelData; modelUrl?: string }>(
  function InstancesView(
    {
      model,
      modelUrl,
      limit: givenLimit,
      sync = false,
      tag,
      tags,
      skin,
      files,
      onSkinError,
      timeout: _loaded,
      opacity,
      castShadow,
      receiveShadow,
      decode,
      pose,
      height,
      origin,
      children,
      ...groupProps
    },
    ref,
  ) {
    const tagData = tags
    const map = useSkinProp(model, skin, { modelUrl, files, onSkinError })
    const parent = useContext(CrowdContext)
    const follows = sync || tag !== undefined
    // Mistakes of code, as the props' checks: development builds say so.
    if (process.env.NODE_ENV !== 'production' && follows && !parent) {
      warnOnce(
        `${model.name}:instances-follow`,
        `<MD2Instances ${sync ? 'sync' : `tag=${JSON.stringify(tag)}`}> (${model.name ?? 'model'}) needs an enclosing <MD2Instances>; drawn on its own`,
      )
    }
    const leader = follows ? parent?.crowd : undefined
    // Following is loaded the first time a crowd follows (suspending once, before the crowd is made).
    const followCrowd = leader ? use(loadFollowCrowd()) : undefined
    // Its raycast's code, loaded (suspending once) before a crowd with pointer handlers draws: no pointer misses it.
    if (hasPointerHandlers(groupProps)) use(loadCrowdQueries())
    // A follower holds exactly its leader's instances.
    const limit = leader?.capacity ?? givenLimit ?? 1000
    // `limit={0}`: an empty crowd (an enemy type with none in this level), made of one slot nobody may claim.
    const held = limit === 0 ? 0 : undefined
    if (process.env.NODE_ENV !== 'production' && leader && givenLimit !== undefined && givenLimit !== leader.capacity) {
      warnOnce(
        `${model.name}:instances-limit:${givenLimit}`,
        `<MD2Instances limit={${givenLimit}}> (${model.name ?? 'model'}) follows a crowd of ${leader.capacity}; using ${leader.capacity}`,
      )
    }
    // The looks its children wear (<MD2Shell>, <MD2BlobShadow>, <MD2Quake2Lighting>), as the crowd's options.
    const [looks] = useState(() => crowdLookSupport.current)
    const worn = looks?.useCrowdLooks(follows)
    // With the looks' code once a look is imported (`MD2Crowd`), without it otherwise.
    const crowd = useCrowd(looks?.Crowd ?? MD2CrowdBase, model, {
      limit: held === 0 ? 1 : limit,
      ...worn?.options,
      opacity,
      map,
      decode: decode ?? leader?.decode,
      pose: pose ?? leader?.pose,
    })
    useImperativeHandle(ref, () => crowd, [crowd])
    crowd.castShadow = castShadow ?? false
    crowd.receiveShadow = receiveShadow ?? false
    // Set while rendering, so followers inside find the tags in their own (earlier) layout effects.
    crowd.tags = tagData
    // Composed into each instance's matrix as <MD2Instance> places it, every frame.
    crowd.setStanding(height, origin)
    if (process.env.NODE_ENV !== 'production' && leader && (height !== undefined || origin !== undefined)) {
      warnOnce(
        `${model.name}:instances-follower-size`,
        `<MD2Instances height origin> (${model.name ?? 'model'}) follows its leader's instances as placed; give them to the leader`,
      )
    }
    useLayoutEffect(() => {
      if (!leader || !followCrowd) return
      followCrowd(crowd, leader, { tag, sync })
      return () => {
        if (crowd.leader === leader) followCrowd(crowd, null)
      }
    }, [crowd, leader, followCrowd, tag, sync, leader?.tags])
    const slots = useMemo(() => {
      const free: number[] = []
      let next = 0
      // The instances' own controllers, by slot: the crowd's events go to the one whose slot they name.
      const controls: (MD2CrowdInstance | undefined)[] = []
      return {
        crowd,
        controls,
        claim: () => {
          if (leader)
            throw new MD2Error(
              'BAD_ARGUMENT',
              `<MD2Instance> inside a follower <MD2Instances> (${crowd.model.name ?? 'model'}): put it in the leader`,
            )
          // The slot freed first: instances unmounted and mounted again in order (StrictMode replays effects so) get their own back.
          const i = free.shift() ?? next++
          const capacity = held ?? crowd.capacity
          if (i >= capacity) {
            throw new MD2Error('BAD_ARGUMENT', `<MD2Instances limit={${capacity}}> holds ${capacity} instances; raise \`limit\``)
          }
          return i
        },
        free: (i: number) => {
          controls[i] = undefined
          crowd.hide(i)
          // The next instance in this slot starts from the crowd's own look.
          if (looks) {
            crowd.setShell(i, undefined)
            crowd.setShadow(i, undefined)
          }
          free.push(i)
        },
      }
    }, [crowd, leader, looks, held])
    // Wired in an effect, to the slots React kept: StrictMode calls `useMemo`'s factory twice and keeps the first.
    useLayoutEffect(() => {
      if (leader) return
      const { controls } = slots
      crowd.events = {
        onFrame: (i, frame) => controls[i]?.callbacks.onFrame?.(frame, controls[i]!.animation),
        onLoop: (i) => controls[i]?.callbacks.onLoop?.(controls[i]!.animation),
        onEnd: (i) => controls[i]?.callbacks.onEnd?.(controls[i]!.animation),
      }
      // Nothing to undo: the next run sets its own, a follower's clock never runs, an unmounted crowd is disposed.
    }, [crowd, leader, slots])
    const standing = useMemo(() => ({ height, origin }), [height, origin])
    return (
      <group {...groupProps}>
        <primitive object={crowd}>
          <CrowdContext.Provider value={slots}>
            <CrowdStandingContext.Provider value={standing}>
              {looks ? (
                <looks.CrowdLooks crowd={crowd} worn={worn!}>
                  {children}
                </looks.CrowdLooks>
              ) : (
                children
              )}
            </CrowdStandingContext.Provider>
          </CrowdContext.Provider>
        </primitive>
      </group>
    )
  },
)

export interface MD2InstanceProps extends Omit<ThreeElements['group'], 'ref'>, UseMD2AnimationOptions {
  /** As `<MD2Model onAnimationEnd>`: a play-once animation reached its last frame (same as `onEnd`). */
  onAnimationEnd?: UseMD2AnimationOptions['onEnd']
  /** Show what this controller shows instead of animating by props. */
  controller?: MD2PoseSource
  /** Receives this instance's controller (`play`, `pause`, `showFrame`, `pose`…), which plays it on the crowd's clock. */
  controllerRef?: Ref<MD2CrowdInstance>
  /**
   * Placed with the instance: anything (a light, a label); and looks for this instance alone, drawn by the
   * crowd: `<MD2Shell color>` (`color={[]}`: none, whatever the crowd wears), `<MD2BlobShadow>`,
   * `<MD2Quake2Lighting shadelight>` (its light, in a crowd lit so).
   */
  children?: ReactNode
}

/**
 * One instance of the enclosing `<MD2Instances>`: a group (its position, rotation and scale place the
 * instance; children follow it) with `<MD2Model>`'s animation props, controller and events.
 * Its pointer handlers (`onClick`, `onPointerOver`…) fire while the pointer is over the instance's current
 * pose, as drei's `<Instance>`'s, and bubble to `<MD2Instances>` (`instanceId`: its `controllerRef`'s `index`).
 */
export const MD2Instance = forwardRef<Group, MD2InstanceProps>(function MD2Instance(props, ref) {
  if (process.env.NODE_ENV !== 'production') checkProps('MD2Instance', props)
  const [animationOptions, { controller, controllerRef, children, ...groupProps }] = splitAnimationProps(props)
  const slots = useContext(CrowdContext)
  if (!slots) throw new MD2Error('BAD_ARGUMENT', '<MD2Instance> must be inside <MD2Instances>')
  const { crowd } = slots
  const [index] = useState<InstanceSlot>(() => ({ value: -1 }))
  useLayoutEffect(() => {
    index.value = slots.claim()
    index.claimed?.()
    return () => {
      slots.free(index.value)
      index.value = -1
    }
  }, [slots, index])
  const [looks] = useState(() => crowdLookSupport.current)
  // Played by the crowd's own clock (advanced by the crowd, typed arrays for every instance), as the props say.
  const animations = useAnimationList(crowd.model, animationOptions.animationTable)
  const control = useMemo(() => new MD2CrowdInstance(crowd, -1, animations), [crowd, animations])
  control.callbacks = animationOptions
  useLayoutEffect(() => {
    control.index = index.value
    slots.controls[index.value] = control
    return () => {
      if (slots.controls[control.index] === control) slots.controls[control.index] = undefined
      // A controller kept past unmount must not play the slot's next owner.
      control.index = -1
    }
  }, [control, slots, index])
  useMD2AnimationOptions(control, animationOptions)
  useImperativeHandle(controllerRef, () => control, [control])
  const { height, origin } = useContext(CrowdStandingContext)
  // For <MD2Collider>: what the instance shows, and the size and origin the crowd composes into its matrix.
  const shown = controller ?? control
  const { model } = crowd
  // The controller is one object for the instance's life (its fields change, not it): what the value is made of.
  // eslint-disable-next-line react-hooks/preserve-manual-memoization
  const told = useMemo(() => ({ model, control: shown, height, origin }), [model, shown, height, origin])
  // A controller given as a prop shows its pose instead; when it goes, the instance plays by its props again.
  const frame = useRef(animationOptions.frame)
  frame.current = animationOptions.frame
  useLayoutEffect(() => (controller ? () => control.showFrame(frame.current ?? null) : undefined), [controller, control])
  const group = useRef<Group>(null)
  useImperativeHandle(ref, () => group.current!, [])
  // Pointer handlers (`onClick`…) on the group: it raycasts its instance, as drei's `<Instance>`.
  // Its raycast's code, loaded (suspending once) before an instance with pointer handlers draws.
  if (hasPointerHandlers(groupProps)) use(loadCrowdQueries())
  useInstanceEvents(group, crowd, index, groupProps, slots)
  // Before the crowd draws: the place (and a given controller's pose) go to the instance's slot.
  useFrame(() => {
    const node = group.current
    if (!node || index.value < 0) return
    node.updateMatrix()
    crowd.setMatrix(index.value, node.matrix)
    if (controller) crowd.setPose(index.value, controller.pose)
  }, ANIMATION_FRAME_PRIORITY)
  return (
    <group ref={group} {...groupProps}>
      <MD2InstanceContext.Provider value={told}>
        {looks ? (
          <looks.InstanceLooks crowd={crowd} slot={index}>
            {children}
          </looks.InstanceLooks>
        ) : (
          children
        )}
      </MD2InstanceContext.Provider>
    </group>
  )
})

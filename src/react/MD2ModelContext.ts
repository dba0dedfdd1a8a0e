import { createContext, isValidElement, useContext, type ReactNode } from 'react'
import type { BufferGeometry, Object3D } from 'three'
import type { MD2Pose } from '../core/animation/pose.js'
import type { MD2Tags } from '../core/tags/parseMD2Tags.js'
import type { MD2ModelData } from '../core/format/types.js'
import type { PoseBoxKernels } from '../core/animation/blendVerticesBounded.js'
import type { MD2PoseLight } from '../three/mesh/MD2Geometry.js'
import type { MD2CrowdOptions } from '../three/crowd/gpu/MD2CrowdOptions.js'
import type { MD2Crowd } from '../three/crowd/MD2Crowd.js'

/**
 * A drawing made from the model's pose in the model's own pass (`<MD2Shell>`, `<MD2BlobShadow>`): its
 * geometry is written with the body's vertices, frame by frame, and not otherwise.
 */
export interface MD2PoseLayer {
  kind: 'shell' | 'shadow' | 'light' | 'bounds'
  /** A shell's or blob shadow's geometry, from `createMD2ShellGeometry` or `createMD2ShadowGeometry` for this model. */
  geometry?: BufferGeometry
  /** A blob shadow's shade vector and height (`WriteMD2PoseOptions.shadow.parameters`). */
  parameters?: Float64Array
  /** Quake II's light (`Quake2Lighting`): the body is drawn unlit, in the colours it writes. */
  light?: MD2PoseLight
  /** The pose's box (`poseBox`): the body's bounds follow the pose instead of holding every frame. */
  box?: PoseBoxKernels
  /**
   * Called before each write with the body's mesh (world matrix current) and the model's clock: returns
   * whether the layer changed, so that the pose is written again even when it is still.
   */
  place?(body: Object3D, clock: { readonly seconds: number }): boolean
}

/** What an `<MD2Model>` tells its children (synced models, attachments, shells and shadows). */
export interface MD2ModelContextValue {
  model: MD2ModelData
  /** What the model shows, updated in place before children's `useFrame` callbacks run. */
  pose: Readonly<MD2Pose>
  /** The model's tags (`<MD2Model tags>`), for `<MD2Attach>`. */
  tags: MD2Tags | undefined
  /** Draws a layer from the model's pose in the model's own pass (one of each kind); returns what removes it. */
  addLayer(layer: MD2PoseLayer): () => void
}

export const MD2ModelContext = /* @__PURE__ */ createContext<MD2ModelContextValue | null>(null)

/**
 * A look worn by a crowd (`<MD2Instances>`: every instance) or one instance (`<MD2Instance>`), where the
 * GPU draws it from the instances' rows instead of a layer written on the CPU: its kind, and the crowd's
 * options it stands for (`<MD2Shell color>` is `{ shell: color }`, `<MD2BlobShadow floor>` `{ shadow: 'blob',
 * shadowFloor: floor }`, `<MD2Quake2Lighting>` `{ lighting: 'quake2', shadelight, … }`).
 */
export interface MD2WornLook {
  kind: 'shell' | 'shadow' | 'light'
  options: Pick<MD2CrowdOptions, 'shell' | 'shadow' | 'shadowFloor' | 'lighting' | 'shadelight' | 'minlight' | 'fullbright' | 'glow'>
}

/**
 * What the looks (`<MD2Shell>`, `<MD2BlobShadow>`, `<MD2Quake2Lighting>`, `<MD2PoseBounds>`) dress: the
 * nearest enclosing `<MD2Model>` (a layer in its pass), `<MD2Instances>` or `<MD2Instance>` (worn).
 */
export interface MD2LookOwner {
  /** The component dressed, for messages: `<MD2Model>`, `<MD2Instances>`, `<MD2Instance>`. */
  component: string
  model: MD2ModelData
  /** A model's: draws a layer from its pose in its own pass. */
  addLayer?(layer: MD2PoseLayer): () => void
  /** A crowd's or an instance's: wears a look; returns what takes it off. */
  wear?(look: MD2WornLook): () => void
  /** A crowd's or an instance's: how the crowd is lit (an instance's light is only its shadelight, in a crowd lit `quake2`). */
  lighting?: MD2CrowdOptions['lighting']
}

export const MD2LookContext = /* @__PURE__ */ createContext<MD2LookOwner | null>(null)

/** The nearest enclosing `<MD2Model>`, or null. */
export function useMD2ModelContext(): MD2ModelContextValue | null {
  return useContext(MD2ModelContext)
}

/** Marks a component as a look (`looks/`), so that `<MD2Player>` dresses its weapon with it too. */
export function markLook<T extends object>(component: T): T {
  looks.add(component)
  return component
}
const looks = /* @__PURE__ */ new WeakSet<object>()

/** Whether `node` is a look element (`<MD2Shell>`…), as `<MD2Player>` hands its looks to its weapon. */
export function isLookElement(node: ReactNode): boolean {
  return isValidElement(node) && typeof node.type !== 'string' && looks.has(node.type as object)
}

/** The looks a crowd's or an instance's children wear, one of each kind: the crowd's options each stands for. */
export type WornLooks = Partial<Record<MD2WornLook['kind'], MD2WornLook['options']>>

/** What a crowd's looks come to: its options, the light its followers take, and what its looks' `wear` sets. */
export interface CrowdWorn {
  options: MD2WornLook['options']
  light: MD2WornLook['options'] | undefined
  setWorn(update: (worn: WornLooks) => WornLooks): void
}

/** An `<MD2Instance>`'s slot in its crowd, and what applies its looks once it has one. */
export interface InstanceSlot {
  value: number
  claimed?: () => void
}

/**
 * How a crowd and its instances wear looks (`looks/crowdLooks.tsx`), given once a look component is imported,
 * so that a crowd whose app imports none ships none of it. Each crowd takes what there is when it mounts.
 */
export interface CrowdLookSupport {
  /** The crowd with its looks' code (`MD2Crowd`), which `<MD2Instances>` makes then (an `MD2CrowdBase` otherwise). */
  Crowd: typeof MD2Crowd
  /** In `<MD2Instances>`: the crowd's options its looks stand for (a follower's light: its leader's, unless its own). */
  useCrowdLooks(follows: boolean): CrowdWorn
  /** Around `<MD2Instances>`'s children: what its looks dress. */
  CrowdLooks(props: { crowd: MD2Crowd; worn: CrowdWorn; children: ReactNode }): ReactNode
  /** Around an `<MD2Instance>`'s children: what its looks dress, applied to its slot once it has one. */
  InstanceLooks(props: { crowd: MD2Crowd; slot: InstanceSlot; children: ReactNode }): ReactNode
}

export const crowdLookSupport: { current?: CrowdLookSupport } = {}

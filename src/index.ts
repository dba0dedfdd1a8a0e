/**
 * react-three-md2: Quake II MD2 models in React Three Fiber. The components and hooks, with everything
 * from `react-three-md2/three` (three.js) and `react-three-md2/core`.
 */
export * from './three/index.js'

// React
export { MD2Model, type MD2ModelProps, type MD2PoseSource } from './react/MD2Model.js'
export { MD2Shell, type MD2ShellProps } from './react/looks/MD2Shell.js'
export { MD2BlobShadow, type MD2BlobShadowProps } from './react/looks/MD2BlobShadow.js'
export { MD2Quake2Lighting, type MD2Quake2LightingProps } from './react/looks/MD2Quake2Lighting.js'
export { MD2PoseBounds } from './react/looks/MD2PoseBounds.js'
export { MD2Player, type MD2PlayerProps } from './react/MD2Player.js'
export { usePlayerIcon } from './react/loading/usePlayerIcon.js'
export { MD2Attach, type MD2AttachProps } from './react/MD2Attach.js'
export { MD2ViewWeapon, type MD2ViewWeaponProps } from './react/MD2ViewWeapon.js'
export { useMD2, type UseMD2Options } from './react/loading/useMD2.js'
export { setLoadTimeout } from './react/loading/loadTimeout.js'
export { MD2ErrorBoundary, type MD2ErrorBoundaryProps } from './react/MD2ErrorBoundary.js'
export { useMD2Skin } from './react/loading/useMD2Skin.js'
export type { ResolvedMD2Skin } from './react/loading/skinSearch.js'
export type { MD2SkinProp } from './react/loading/useSkinProp.js'
export { useMD2Tags } from './react/loading/useMD2Tags.js'
export { useMD2AnimationTable } from './react/loading/useMD2AnimationTable.js'
export { MD2Archive, type MD2ArchiveProps } from './react/MD2Archive.js'
export { useMD2Archive } from './react/loading/useMD2Archive.js'
export {
  MD2Instances,
  MD2Instance,
  useMD2Crowd,
  type MD2InstancesProps,
  type MD2InstanceProps,
  type UseMD2CrowdOptions,
} from './react/MD2Instances.js'
export { useMD2Animation, type UseMD2AnimationOptions } from './react/useMD2Animation.js'
export { usePlayerAnimation, type UsePlayerAnimationOptions } from './react/usePlayerAnimation.js'
export { useMD2ModelContext, type MD2ModelContextValue, type MD2PoseLayer } from './react/MD2ModelContext.js'

/**
 * react-three-md2: Quake II MD2 models in React Three Fiber. The core (`react-three-md2/core`), with
 * the three.js and React layers.
 */
export * from './core/index.js'

// three.js
export { MD2Loader, md2SourceUrl } from './three/loaders/MD2Loader.js'
export { MD2SkinLoader, createSkinTexture, getMissingSkinTexture } from './three/loaders/MD2SkinLoader.js'
export { MD2TagLoader } from './three/loaders/MD2TagLoader.js'
export { MD2ArchiveLoader, type LoadedMD2Archive } from './three/loaders/MD2ArchiveLoader.js'
export {
  createMD2Geometry,
  writeMD2Pose,
  getMD2RenderData,
  type MD2RenderData,
  type CreateMD2GeometryOptions,
  type WriteMD2PoseOptions,
} from './three/mesh/MD2Geometry.js'
export { setTagMatrix } from './three/mesh/tagMatrix.js'
export { md2FromGeometry, type MD2FromGeometryOptions } from './three/convert/md2FromGeometry.js'
export { exportGLTF, type ExportGLTFOptions } from './three/convert/exportGLTF.js'
export { MD2Crowd, type MD2CrowdOptions } from './three/crowd/MD2Crowd.js'

// React
export { MD2Model, type MD2ModelProps, type MD2PoseSource } from './react/MD2Model.js'
export { MD2Player, type MD2PlayerProps } from './react/MD2Player.js'
export { usePlayerIcon } from './react/loading/usePlayerIcon.js'
export { MD2Attach, type MD2AttachProps } from './react/MD2Attach.js'
export { MD2ViewWeapon, type MD2ViewWeaponProps } from './react/MD2ViewWeapon.js'
export { useMD2, type UseMD2Options } from './react/loading/useMD2.js'
export { setLoadTimeout } from './react/loading/loadTimeout.js'
export { useMD2Skin } from './react/loading/useMD2Skin.js'
export type { ResolvedMD2Skin } from './react/loading/skinSearch.js'
export type { MD2SkinProp } from './react/loading/useSkinProp.js'
export { useMD2Tags } from './react/loading/useMD2Tags.js'
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
export { useMD2ModelContext, type MD2ModelContextValue } from './react/MD2ModelContext.js'

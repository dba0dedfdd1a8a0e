/**
 * react-three-md2: Quake II MD2 models in React Three Fiber. The core (`react-three-md2/core`), with
 * the three.js and React layers.
 */
export * from './core/index'

// three.js
export { MD2Loader, md2SourceUrl } from './three/MD2Loader'
export { MD2SkinLoader, createSkinTexture, getMissingSkinTexture } from './three/MD2SkinLoader'
export { MD2TagLoader } from './three/MD2TagLoader'
export { MD2ArchiveLoader, type LoadedMD2Archive } from './three/MD2ArchiveLoader'
export { createMD2Geometry, writeMD2Pose, getMD2RenderData, type MD2RenderData, type CreateMD2GeometryOptions } from './three/MD2Geometry'
export { setTagMatrix } from './three/tagMatrix'
export { md2FromGeometry, type MD2FromGeometryOptions } from './three/md2FromGeometry'
export { exportGLTF, type ExportGLTFOptions } from './three/exportGLTF'
export { MD2Crowd, type MD2CrowdOptions } from './three/MD2Crowd'

// React
export { MD2Model, type MD2ModelProps, type MD2PoseSource } from './react/MD2Model'
export { MD2Player, usePlayerIcon, type MD2PlayerProps } from './react/MD2Player'
export { MD2Attach, type MD2AttachProps } from './react/MD2Attach'
export { MD2ViewWeapon, type MD2ViewWeaponProps } from './react/MD2ViewWeapon'
export { useMD2, type UseMD2Options } from './react/useMD2'
export { useMD2Skin, type ResolvedMD2Skin, type MD2SkinProp } from './react/useMD2Skin'
export { useMD2Tags } from './react/useMD2Tags'
export { MD2Archive, useMD2Archive, type MD2ArchiveProps } from './react/MD2Archive'
export {
  MD2Instances,
  MD2Instance,
  useMD2Crowd,
  type MD2InstancesProps,
  type MD2InstanceProps,
  type UseMD2CrowdOptions,
} from './react/MD2Instances'
export { useMD2Animation, type UseMD2AnimationOptions } from './react/useMD2Animation'
export { usePlayerAnimation, type PlayerAnimationController, type UsePlayerAnimationOptions } from './react/usePlayerAnimation'
export { useMD2ModelContext, type MD2ModelContextValue } from './react/MD2ModelContext'

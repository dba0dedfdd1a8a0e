/**
 * react-three-md2: Quake II MD2 models in React Three Fiber. Re-exports the core
 * (`react-three-md2/core`) with the three.js and React layers.
 */
import type { MD2Model as MD2ModelData } from './core/types'

export * from './core/index'
export { MD2Loader, md2SourceUrl } from './three/MD2Loader'
export { createMD2Geometry, writeMD2Frame, getMD2RenderData, type MD2RenderData, type CreateMD2GeometryOptions } from './three/MD2Geometry'
export { md2FromGeometry, type MD2FromGeometryOptions } from './three/md2FromGeometry'
export { useMD2 } from './react/useMD2'
export { MD2SkinLoader, createSkinTexture, getMissingSkinTexture, skinKindOf, type MD2SkinKind } from './three/MD2SkinLoader'
export { useMD2Skin, type ResolvedMD2Skin, type MD2SkinProp } from './react/useMD2Skin'
export { MD2Model, type MD2ModelProps } from './react/MD2Model'
/**
 * The component `MD2Model` shares its name with the core's parsed-model type; both are exported:
 * use `MD2Model` as a type for the data (or its alias `MD2ModelData`) and as a value for the component.
 */
export type MD2Model = MD2ModelData
export type { MD2ModelData }
export { useMD2Animation, type UseMD2AnimationOptions } from './react/useMD2Animation'
export { usePlayerAnimation, type PlayerAnimationController, type UsePlayerAnimationOptions } from './react/usePlayerAnimation'
export { MD2ModelContext, useMD2ModelContext, type MD2ModelContextValue } from './react/MD2ModelContext'
export type { MD2PoseSource } from './react/MD2Model'
export { MD2ViewWeapon, type MD2ViewWeaponProps } from './react/MD2ViewWeapon'
export { MD2Attach, type MD2AttachProps } from './react/MD2Attach'
export { MD2Player, usePlayerIcon, type MD2PlayerProps } from './react/MD2Player'
export { useMD2Tags } from './react/useMD2Tags'
export { MD2TagLoader } from './three/MD2TagLoader'
export { setTagMatrix } from './three/tagMatrix'

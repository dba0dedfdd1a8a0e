/**
 * react-three-md2/three: the MD2 format in plain three.js, without React (loaders, geometry and pose
 * writing, the GPU crowd, tag matrices, conversion), with everything from the core.
 */
export * from '../core/index.js'

export { MD2Loader, md2SourceUrl } from './loaders/MD2Loader.js'
export { MD2SkinLoader, createSkinTexture, getMissingSkinTexture } from './loaders/MD2SkinLoader.js'
export { MD2TagLoader } from './loaders/MD2TagLoader.js'
export { MD2ArchiveLoader, type LoadedMD2Archive } from './loaders/MD2ArchiveLoader.js'
export {
  createMD2Geometry,
  writeMD2Pose,
  getMD2RenderData,
  type MD2RenderData,
  type CreateMD2GeometryOptions,
  type WriteMD2PoseOptions,
  type MD2PoseLight,
} from './mesh/MD2Geometry.js'
export { poseBox, type PoseBoxKernels } from '../core/animation/blendVerticesBounded.js'
export { getStandingBounds, type MD2StandingBounds, type MD2Origin } from '../core/format/standingBounds.js'
export { createMD2ShellGeometry, createMD2ShadowGeometry, placeBlobShadow } from './mesh/shellShadowGeometry.js'
export { createMD2ShellMaterial } from './materials/shellMaterial.js'
export { createMD2ShadowMaterial } from './materials/shadowMaterial.js'
export { Quake2Lighting, type Quake2LightingOptions } from './materials/Quake2Lighting.js'
export { setTagMatrix } from './mesh/tagMatrix.js'
export { md2FromGeometry, type MD2FromGeometryOptions } from './convert/md2FromGeometry.js'
export { exportGLTF, type ExportGLTFOptions } from './convert/exportGLTF.js'
export { bakeMD2, type BakeMD2Options, type BakedMD2, type BakePlanEntry } from './convert/bakeMD2.js'
export { convertToMD2, ANIMATION_TABLE_HEADER, type ConvertToMD2Options, type ConvertedMD2 } from './convert/convertToMD2.js'
export {
  bakePlayerMD2,
  guessPlayerClips,
  type BakePlayerOptions,
  type BakedPlayer,
  type PlayerAnimationName,
} from './convert/bakePlayer.js'
export { loadSimplifier } from './convert/loadSimplifier.js'
export { skinImageOf } from './convert/skinImage.js'
export { encodePCX, type EncodePCXOptions } from '../core/images/encodePCX.js'
export { encodeTGA } from '../core/images/encodeTGA.js'
export { QUAKE2_PALETTE } from '../core/images/quake2Palette.js'
export { MD2Crowd, type MD2CrowdOptions } from './crowd/MD2Crowd.js'
export { followCrowd, type CrowdFollowOptions } from './crowd/followCrowd.js'
export { MD2CrowdInstance } from './crowd/MD2CrowdInstance.js'
export type { MD2AnimationReadout } from '../core/animation/MD2AnimationReadout.js'
export type { MD2AnimationCallbacks } from '../core/animation/MD2AnimationController.js'
export { createMD2MorphGeometry, type CreateMD2MorphGeometryOptions, type MD2Handedness } from './mesh/createMD2MorphGeometry.js'
export { threeAnimationGroups } from '../core/format/threeAnimationGroups.js'
export { MD2Character } from './character/MD2Character.js'
export { MD2CharacterComplex, type MD2CharacterControls } from './character/MD2CharacterComplex.js'
export {
  MD2CharacterMesh,
  type MD2CharacterConfig,
  type MD2CharacterAnimations,
  type MD2CharacterOptions,
} from './character/MD2CharacterParts.js'

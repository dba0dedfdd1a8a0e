/**
 * react-three-md2/internal: everything the core is built from (tables, kernels, layout, the writer's
 * parts), for tools and tests. Not covered by semver: names here may change in any release.
 */
export * from './index'
export {
  HEADER_FIELDS,
  type HeaderField,
  MAX_MD2_INDEXED,
  MAX_FRAME_NAME_LENGTH,
  MAX_SKIN_NAME_LENGTH,
  MD2_IDENT,
  MD2_VERSION,
} from './spec'
export type { MD2Model } from './types'
export { fileSpellings, findInListing, skinCandidateRounds, skinUrlNextTo } from './skin-paths'
export { warnOnce } from './warn-once'
export { blendPoseYUp, blendPoseInto, blendOverHeldPose } from './blend'
export { buildFrames, defineLazyFrames, type MD2FrameStore } from './frame-store'
export { DEFAULT_MAX_PIXELS, checkImageSize } from './image'

export type { MD2ErrorDetails } from './errors'
export type { MD2GlCommand } from './types'
export { decodeGlCommands } from './parse'
export { QUAKE2_PLAYER_ANIMATIONS, groupFrameAnimations, resolveAnimations } from './animations'
export {
  createAnimationState,
  setAnimation,
  advanceAnimation,
  holdFrame,
  type AnimationState,
  type AnimationRange,
} from './animation-state'
export { ANORMS, ANORMS_256, ANORMTAB, NUM_VERTEX_NORMALS, SHADEDOT_QUANT, shadeDots, nearestNormalIndex } from './normals'
export { buildVertexLayout, type MD2VertexLayout } from './mesh'
export { blendVerticesYUp, ANORMS_256_YUP, type MD2BlendSource } from './blend'
export { sniffImageType, type ImageDecodeOptions, type ImageType } from './image'
export { decodePCXIndexed, type PCXOptions, type PCXIndexedImage } from './pcx'
export type { TGAOptions } from './tga'
export { checkWritable, md2Header, type WritableMD2, type WriteMD2Options, type MD2Counts } from './write'
export { buildGlCommands, glCommandTopology, type GlCommandSource, type GlCommandTopology } from './glcommands'
export { computeVertexNormals, type QuantizedFrame } from './quantize'
export { SKIN_EXTENSIONS } from './skin-paths'
export { copyPose, posesEqual } from './pose'
export { AnimationPlayer, fadeOutWeight, type PlayRange, type PlayOptions, type AnimationEvents } from './animation-player'
export type { MD2AnimationCallbacks } from './animator'
export { PLAYER_PRIORITY, type PlayerAnimationState, type PlayerGesture, type PlayerPriority } from './player-animation'
export {
  POWERSUIT_SCALE,
  SHELL_ALPHA,
  effectiveShadelight,
  quake2LightTable,
  shadeDotsRow,
  shadowVector,
  shellColor,
  type Quake2LightFlags,
  type ShellKind,
  type ShellSpec,
} from './quake2-light'
export type { TagPose } from './tags'
export { openPak, openArchiveByRanges, archiveOfFiles, type MD2ArchiveEntry, type MD2RangeArchive, type ArchiveByteSource } from './archive'
export { CrowdAnimation, CROWD_POSE_STRIDE } from './crowd-animation'

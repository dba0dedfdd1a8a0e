/**
 * react-three-md2/internal: everything the core is built from (tables, kernels, layout, the writer's
 * parts), for tools and tests. Not covered by semver: names here may change in any release.
 */
export * from './index.js'
export {
  HEADER_FIELDS,
  type HeaderField,
  MAX_MD2_INDEXED,
  MAX_FRAME_NAME_LENGTH,
  MAX_SKIN_NAME_LENGTH,
  MD2_IDENT,
  MD2_VERSION,
} from './format/spec.js'
export type { MD2ModelData } from './format/types.js'
export { fileSpellings, findInListing, skinCandidateRounds, skinUrlNextTo } from './images/skinPaths.js'
export { warnOnce } from './warnOnce.js'
export { blendPoseYUp, blendOverHeldPose, type BlendTarget, type HeldPoseTarget, type KeyframeBlend } from './animation/blendVertices.js'
export { blendPoseInto, type PoseOutputs } from './animation/blendPoseInto.js'
export { buildFrames, defineLazyFrames, type MD2FrameStore } from './format/frameStore.js'
export { DEFAULT_MAX_PIXELS, checkImageSize } from './images/decodedImage.js'

export type { MD2ErrorDetails } from './MD2Error.js'
export type { MD2GlCommand } from './format/types.js'
export { decodeGlCommands } from './format/parseMD2.js'
export { QUAKE2_PLAYER_ANIMATIONS, groupFrameAnimations, resolveAnimations } from './format/animationTable.js'
export { ANORMS, ANORMS_256, NUM_VERTEX_NORMALS, nearestNormalIndex } from './format/normals.js'
export { ANORMTAB, SHADEDOT_QUANT, shadeDots } from './lighting/shadeDots.js'
export { buildVertexLayout, type MD2VertexLayout } from './format/vertexLayout.js'
export { blendVerticesYUp, ANORMS_256_YUP, type MD2BlendSource } from './animation/blendVertices.js'
export { sniffImageType, type ImageDecodeOptions, type ImageType } from './images/decodedImage.js'
export { decodePCXIndexed, type PCXOptions, type PCXIndexedImage } from './images/pcx.js'
export type { TGAOptions } from './images/tga.js'
export { checkWritable, md2Header, type WritableMD2, type WriteMD2Options, type MD2Counts } from './format/writeMD2.js'
export { buildGlCommands, glCommandTopology, type GlCommandSource, type GlCommandTopology } from './format/glCommands.js'
export { computeVertexNormals, type QuantizedFrame } from './format/quantizeFrame.js'
export { SKIN_EXTENSIONS } from './images/skinPaths.js'
export { copyPose, posesEqual } from './animation/pose.js'
export { KeyframeClock, fadeOutWeight, type PlayRange, type PlayOptions, type KeyframeEvents } from './animation/KeyframeClock.js'
export type { MD2AnimationCallbacks } from './animation/MD2AnimationController.js'
export { PLAYER_PRIORITY, type PlayerAnimationState, type PlayerGesture, type PlayerPriority } from './animation/playerAnimation.js'
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
} from './lighting/quake2Light.js'
export type { TagPose } from './tags/tagTransform.js'
export {
  openPak,
  openArchiveByRanges,
  archiveOfFiles,
  type MD2ArchiveEntry,
  type MD2RangeArchive,
  type ArchiveByteSource,
} from './archive/openArchive.js'
export { CrowdClock, CROWD_POSE_STRIDE, type CrowdEvents } from './animation/CrowdClock.js'
export { writeGLB, type WriteGLBOptions } from './gltf/writeGLB.js'
export { packGLB, readGLB, type GLBContents } from './gltf/glb.js'
export { encodePNG } from './images/png.js'
export { safeEntryPath } from './archive/safeEntryPath.js'
export { writePak, writeZip, type ArchiveInput } from './archive/writeArchive.js'

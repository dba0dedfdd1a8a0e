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
export type { MD2Model } from './format/types.js'
export { fileSpellings, findInListing, skinCandidateRounds, skinUrlNextTo } from './images/skin-paths.js'
export { warnOnce } from './warn-once.js'
export { blendPoseYUp, blendPoseInto, blendOverHeldPose } from './animation/blend-vertices.js'
export { buildFrames, defineLazyFrames, type MD2FrameStore } from './format/frame-store.js'
export { DEFAULT_MAX_PIXELS, checkImageSize } from './images/decoded-image.js'

export type { MD2ErrorDetails } from './errors.js'
export type { MD2GlCommand } from './format/types.js'
export { decodeGlCommands } from './format/parse.js'
export { QUAKE2_PLAYER_ANIMATIONS, groupFrameAnimations, resolveAnimations } from './animation/animation-table.js'
export {
  createAnimationState,
  setAnimation,
  advanceAnimation,
  holdFrame,
  type AnimationState,
  type AnimationRange,
} from './animation/keyframe-clock.js'
export { ANORMS, ANORMS_256, NUM_VERTEX_NORMALS, nearestNormalIndex } from './format/normals.js'
export { ANORMTAB, SHADEDOT_QUANT, shadeDots } from './lighting/shade-dots.js'
export { buildVertexLayout, type MD2VertexLayout } from './format/vertex-layout.js'
export { blendVerticesYUp, ANORMS_256_YUP, type MD2BlendSource } from './animation/blend-vertices.js'
export { sniffImageType, type ImageDecodeOptions, type ImageType } from './images/decoded-image.js'
export { decodePCXIndexed, type PCXOptions, type PCXIndexedImage } from './images/pcx.js'
export type { TGAOptions } from './images/tga.js'
export { checkWritable, md2Header, type WritableMD2, type WriteMD2Options, type MD2Counts } from './format/write.js'
export { buildGlCommands, glCommandTopology, type GlCommandSource, type GlCommandTopology } from './format/gl-commands.js'
export { computeVertexNormals, type QuantizedFrame } from './format/quantize.js'
export { SKIN_EXTENSIONS } from './images/skin-paths.js'
export { copyPose, posesEqual } from './animation/pose.js'
export { AnimationPlayer, fadeOutWeight, type PlayRange, type PlayOptions, type AnimationEvents } from './animation/range-player.js'
export type { MD2AnimationCallbacks } from './animation/animation-controller.js'
export { PLAYER_PRIORITY, type PlayerAnimationState, type PlayerGesture, type PlayerPriority } from './animation/quake2-player-rules.js'
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
} from './lighting/quake2-light.js'
export type { TagPose } from './tags/tag-transform.js'
export {
  openPak,
  openArchiveByRanges,
  archiveOfFiles,
  type MD2ArchiveEntry,
  type MD2RangeArchive,
  type ArchiveByteSource,
} from './archive/open-archive.js'
export { CrowdAnimation, CROWD_POSE_STRIDE, type CrowdEvents } from './animation/crowd-player.js'
export { writeGLB, type WriteGLBOptions } from './gltf/write-glb.js'
export { packGLB, readGLB, type GLBContents } from './gltf/glb.js'
export { encodePNG } from './images/png.js'
export { safeEntryPath } from './archive/entry-path.js'
export { writePak, writeZip, type ArchiveInput } from './archive/write-archive.js'

/**
 * react-three-md2/core: the MD2 format in plain TypeScript. No React, no three.js, no DOM; runs in
 * Node, browsers and workers.
 */
export { MD2Error, isMD2Error, type MD2ErrorCode, type MD2ErrorDetails } from './errors'
export type { MD2Animation, MD2AnimationDef, MD2Frame, MD2GlCommand, MD2Header, MD2Model } from './types'
export { ENGINE_LIMITS, MD2_IDENT, MD2_VERSION, QUAKE2_FPS } from './constants'
export { parseMD2, decodeGlCommands, type ParseMD2Options } from './parse'
export { decodeFrame, decodeFrameNormals, blendFrames, frameBounds } from './frame'
export {
  QUAKE2_PLAYER_ANIMATIONS,
  groupFrameAnimations,
  resolveAnimations,
  parseAnimationTable,
  findAnimation,
  type AnimationSelector,
} from './animations'
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
export { blendVerticesYUp, quakeToYUp, ANORMS_256_YUP, type MD2BlendSource } from './blend'
export { sniffImageType, type DecodedImage, type ImageDecodeOptions, type ImageType } from './image'
export { decodePCX, decodePCXIndexed, type PCXOptions, type PCXIndexedImage } from './pcx'
export { decodeTGA, type TGAOptions } from './tga'
export {
  writeMD2,
  checkWritable,
  md2Header,
  MAX_MD2_INDEXED,
  MAX_FRAME_NAME_LENGTH,
  MAX_SKIN_NAME_LENGTH,
  type WritableMD2,
  type WriteMD2Options,
  type MD2Counts,
} from './write'
export { buildGlCommands, glCommandTopology, type GlCommandSource, type GlCommandTopology } from './glcommands'
export { quantizeFrame, computeVertexNormals, type QuantizedFrame } from './quantize'
export { createMD2, type CreateMD2Input } from './create'
export { skinCandidates, SKIN_EXTENSIONS } from './skin-paths'
export { createPose, copyPose, posesEqual, type MD2Pose } from './pose'
export { AnimationPlayer, fadeOutWeight, type PlayRange, type PlayOptions, type AnimationEvents } from './animation-player'
export { MD2Animator, type MD2AnimationController, type MD2AnimationCallbacks } from './animator'
export {
  PLAYER_PRIORITY,
  createPlayerAnimationState,
  stepPlayerAnimation,
  type PlayerAnimationState,
  type PlayerInput,
  type PlayerGesture,
  type PlayerPriority,
} from './player-animation'
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
export { parseMD2Tags, findTag, tagTransform, type MD2Tags, type TagPose } from './tags'

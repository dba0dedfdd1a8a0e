/**
 * react-three-md2/core: the MD2 format in plain TypeScript. No React, no three.js, no DOM; runs in
 * Node, browsers and workers. The tables and kernels it is built from are in `react-three-md2/internal`.
 */

// Read
export { parseMD2, type ParseMD2Options } from './parse'
export type { MD2Model as MD2ModelData, MD2Header, MD2Frame, MD2Animation, MD2AnimationDef } from './types'
export { MD2Error, isMD2Error, type MD2ErrorCode } from './errors'
export { decodeFrame, decodeFrameNormals, blendFrames, frameBounds } from './frame'
export { QUAKE2_FPS } from './spec'
export { quakeToYUp } from './blend'

// Animate
export { parseAnimationTable, findAnimation, type AnimationSelector } from './animations'
export { MD2Animator, type MD2AnimationController } from './animator'
export { createPose, type MD2Pose } from './pose'
export { stepPlayerAnimation, createPlayerAnimationState, type PlayerInput } from './player-animation'

// Skins
export { decodePCX } from './pcx'
export { decodeTGA } from './tga'
export type { DecodedImage } from './image'
export { skinCandidates } from './skin-paths'

// Write
export { writeMD2 } from './write'
export { createMD2, type CreateMD2Input } from './create'
export { quantizeFrame } from './quantize'

// Tags (UFO:AI)
export { parseMD2Tags, findTag, tagTransform, type MD2Tags } from './tags'

// Archives
export { openArchive, type MD2ArchiveFiles } from './archive'

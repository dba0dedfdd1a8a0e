/**
 * react-three-md2/core: the MD2 format in plain TypeScript. No React, no three.js, no DOM; runs in
 * Node, browsers and workers. The tables and kernels it is built from are in `react-three-md2/internal`.
 */

// Read
export { parseMD2, type ParseMD2Options } from './format/parseMD2.js'
export type { MD2ModelData, MD2Header, MD2Frame, MD2Animation, MD2AnimationDef } from './format/types.js'
export { MD2Error, isMD2Error, type MD2ErrorCode } from './MD2Error.js'
export { decodeFrame, decodeFrameNormals, blendFrames, frameBounds } from './format/decodeFrame.js'
export { QUAKE2_FPS } from './format/spec.js'
export { quakeToYUp } from './animation/blendVertices.js'

// Animate
export { parseAnimationTable, findAnimation, type AnimationSelector } from './format/animationTable.js'
export { MD2AnimationController } from './animation/MD2AnimationController.js'
export { createPose, type MD2Pose } from './animation/pose.js'
export { stepPlayerAnimation, createPlayerAnimationState, type PlayerInput } from './animation/playerAnimation.js'
export { PlayerAnimationController } from './animation/PlayerAnimationController.js'

// Skins
export { decodePCX } from './images/pcx.js'
export { decodeTGA } from './images/tga.js'
export type { DecodedImage } from './images/decodedImage.js'
export { skinCandidates } from './images/skinPaths.js'

// Write
export { writeMD2 } from './format/writeMD2.js'
export { createMD2, type CreateMD2Input } from './format/createMD2.js'
export { quantizeFrame } from './format/quantizeFrame.js'

// Tags (UFO:AI)
export { parseMD2Tags, findTag, type MD2Tags } from './tags/parseMD2Tags.js'
export { tagTransform } from './tags/tagTransform.js'

// Archives
export { openArchive, type MD2ArchiveFiles } from './archive/openArchive.js'

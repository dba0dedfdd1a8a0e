/**
 * react-three-md2/core: the MD2 format in plain TypeScript. No React, no three.js, no DOM; runs in
 * Node, browsers and workers. The tables and kernels it is built from are in `react-three-md2/internal`.
 */

// Read
export { parseMD2, type ParseMD2Options } from './format/parse.js'
export type { MD2Model as MD2ModelData, MD2Header, MD2Frame, MD2Animation, MD2AnimationDef } from './format/types.js'
export { MD2Error, isMD2Error, type MD2ErrorCode } from './errors.js'
export { decodeFrame, decodeFrameNormals, blendFrames, frameBounds } from './format/decode-frame.js'
export { QUAKE2_FPS } from './format/spec.js'
export { quakeToYUp } from './animation/blend-vertices.js'

// Animate
export { parseAnimationTable, findAnimation, type AnimationSelector } from './animation/animation-table.js'
export { MD2Animator, type MD2AnimationController } from './animation/animation-controller.js'
export { createPose, type MD2Pose } from './animation/pose.js'
export { stepPlayerAnimation, createPlayerAnimationState, type PlayerInput } from './animation/quake2-player-rules.js'

// Skins
export { decodePCX } from './images/pcx.js'
export { decodeTGA } from './images/tga.js'
export type { DecodedImage } from './images/decoded-image.js'
export { skinCandidates } from './images/skin-paths.js'

// Write
export { writeMD2 } from './format/write.js'
export { createMD2, type CreateMD2Input } from './format/create.js'
export { quantizeFrame } from './format/quantize.js'

// Tags (UFO:AI)
export { parseMD2Tags, findTag, type MD2Tags } from './tags/tag-file.js'
export { tagTransform } from './tags/tag-transform.js'

// Archives
export { openArchive, type MD2ArchiveFiles } from './archive/open-archive.js'

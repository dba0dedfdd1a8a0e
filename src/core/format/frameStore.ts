import { FRAME_HEADER_SIZE, VERTEX_SIZE } from './spec.js'
import type { MD2Frame, MD2ModelData } from './types.js'

/** What a model keeps of its frames: names, transforms and one view on every frame's bytes. */
export type MD2FrameStore = Pick<MD2ModelData, 'header' | 'frameNames' | 'frameTransforms' | 'frameData' | 'frameStride'>

/**
 * The frame objects of a model, built from its frame store: `scale` and `translate` from
 * `frameTransforms`, `vertices` as views on `frameData` (no bytes copied).
 */
export function buildFrames(model: MD2FrameStore): MD2Frame[] {
  const { frameNames, frameTransforms: k, frameData, frameStride } = model
  const vertexBytes = model.header.numVertices * VERTEX_SIZE
  const frames: MD2Frame[] = new Array(frameNames.length)
  for (let f = 0; f < frameNames.length; f++) {
    const start = f * frameStride + FRAME_HEADER_SIZE
    const o = f * 6
    frames[f] = {
      name: frameNames[f]!,
      scale: [k[o]!, k[o + 1]!, k[o + 2]!],
      translate: [k[o + 3]!, k[o + 4]!, k[o + 5]!],
      vertices: frameData.subarray(start, start + vertexBytes),
    }
  }
  return frames
}

function setFrames(this: MD2ModelData, frames: MD2Frame[]): void {
  Object.defineProperty(this, 'frames', { value: frames, writable: true, enumerable: true, configurable: true })
}

// One getter and setter shared by every model, so models keep sharing one hidden class.
function getFrames(this: MD2ModelData): MD2Frame[] {
  const frames = buildFrames(this)
  setFrames.call(this, frames)
  return frames
}

/**
 * Gives `model` a `frames` property built from its frame store on first read, then kept as a
 * plain (writable, enumerable) value. Assigning `frames` first replaces it without building.
 */
export function defineLazyFrames<T extends Omit<MD2ModelData, 'frames'>>(model: T): T & { frames: MD2Frame[] } {
  Object.defineProperty(model, 'frames', { get: getFrames, set: setFrames, enumerable: true, configurable: true })
  return model as T & { frames: MD2Frame[] }
}

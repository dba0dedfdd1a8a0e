import { Box3, BufferAttribute, Sphere, Vector3 } from 'three'
import { buildVertexLayout, type MD2VertexLayout } from '../../core/format/vertexLayout.js'
import type { MD2ModelData } from '../../core/format/types.js'

/**
 * Everything about a model that no instance changes, built once per parsed model and shared:
 * the vertex layout, the index and uv attributes, and bounds that hold every frame.
 */
export interface MD2RenderData {
  layout: MD2VertexLayout
  index: BufferAttribute
  uv: BufferAttribute
  /** Y-up box holding every vertex of every frame, so culling never drops a moving limb. */
  boundingBox: Box3
  boundingSphere: Sphere
}

const renderDataCache = new WeakMap<MD2ModelData, MD2RenderData>()

export function getMD2RenderData(model: MD2ModelData): MD2RenderData {
  let data = renderDataCache.get(model)
  if (!data) {
    data = buildRenderData(model)
    renderDataCache.set(model, data)
  }
  return data
}

function buildRenderData(model: MD2ModelData): MD2RenderData {
  const layout = buildVertexLayout(model)
  const boundingBox = allFramesBox(model)
  return {
    layout,
    index: new BufferAttribute(layout.indices, 1),
    uv: new BufferAttribute(layout.uvs, 2),
    boundingBox,
    boundingSphere: boundingBox.getBoundingSphere(new Sphere()),
  }
}

/**
 * The Y-up box holding every vertex of every frame: per frame, the lowest and highest quantized
 * byte on each axis in one tight pass, then through that frame's scale and translate. (The soldier's
 * 1,007 frames take a few ms on first load, against ~10× that through `frameBounds` per frame.)
 */
function allFramesBox(model: MD2ModelData): Box3 {
  const lo = [Infinity, Infinity, Infinity]
  const hi = [-Infinity, -Infinity, -Infinity]
  const { frameData: data, frameStride: stride, frameTransforms: m } = model
  const vertexBytes = model.header.numVertices * 4
  for (let f = 0; f < model.header.numFrames; f++) {
    const start = f * stride + 40
    const end = start + vertexBytes
    let lx = 255,
      ly = 255,
      lz = 255,
      hx = 0,
      hy = 0,
      hz = 0
    for (let i = start; i < end; i += 4) {
      const x = data[i]!,
        y = data[i + 1]!,
        z = data[i + 2]!
      if (x < lx) lx = x
      if (x > hx) hx = x
      if (y < ly) ly = y
      if (y > hy) hy = y
      if (z < lz) lz = z
      if (z > hz) hz = z
    }
    const low = [lx, ly, lz]
    const high = [hx, hy, hz]
    for (let k = 0; k < 3; k++) {
      // A negative scale (legal, if odd) swaps which byte gives the lower coordinate.
      const scale = m[f * 6 + k]!
      const translate = m[f * 6 + 3 + k]!
      const p = low[k]! * scale + translate
      const q = high[k]! * scale + translate
      lo[k] = Math.min(lo[k]!, p, q)
      hi[k] = Math.max(hi[k]!, p, q)
    }
  }
  // Y-up (X, Y, Z) = Quake (y, z, x).
  return new Box3(new Vector3(lo[1], lo[2], lo[0]), new Vector3(hi[1], hi[2], hi[0]))
}

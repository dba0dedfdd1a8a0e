import { Box3, BufferAttribute, BufferGeometry, DynamicDrawUsage, Sphere, Vector3 } from 'three'
import { blendVerticesYUp } from '../core/blend'
import { frameBounds } from '../core/frame'
import { buildVertexLayout, type MD2VertexLayout } from '../core/mesh'
import type { MD2Model } from '../core/types'

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

const renderDataCache = new WeakMap<MD2Model, MD2RenderData>()

export function getMD2RenderData(model: MD2Model): MD2RenderData {
  let data = renderDataCache.get(model)
  if (!data) {
    data = buildRenderData(model)
    renderDataCache.set(model, data)
  }
  return data
}

function buildRenderData(model: MD2Model): MD2RenderData {
  const layout = buildVertexLayout(model)
  const boundingBox = new Box3()
  const corner = new Vector3()
  for (let f = 0; f < model.frames.length; f++) {
    const { min, max } = frameBounds(model, f)
    // Y-up (X, Y, Z) = Quake (y, z, x).
    boundingBox.expandByPoint(corner.set(min[1], min[2], min[0]))
    boundingBox.expandByPoint(corner.set(max[1], max[2], max[0]))
  }
  return {
    layout,
    index: new BufferAttribute(layout.indices, 1),
    uv: new BufferAttribute(layout.uvs, 2),
    boundingBox,
    boundingSphere: boundingBox.getBoundingSphere(new Sphere()),
  }
}

export interface CreateMD2GeometryOptions {
  /** Allocate and write a normal attribute (skip it for unlit materials). Default true. */
  normals?: boolean
  /** The frame written at creation. Default 0. */
  frame?: number
}

/**
 * A BufferGeometry for one instance: its own dynamic `position` (and `normal`) buffers, the shared
 * `index` and `uv` attributes, and the all-frames bounds. Dispose it when done; the shared parts
 * are simply uploaded again by whichever instance draws next.
 */
export function createMD2Geometry(model: MD2Model, options: CreateMD2GeometryOptions = {}): BufferGeometry {
  const data = getMD2RenderData(model)
  const count = data.layout.vertexCount
  const geometry = new BufferGeometry()
  geometry.name = model.name ?? 'md2'
  geometry.setIndex(data.index)
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(count * 3), 3).setUsage(DynamicDrawUsage))
  if (options.normals !== false) {
    geometry.setAttribute('normal', new BufferAttribute(new Float32Array(count * 3), 3).setUsage(DynamicDrawUsage))
  }
  geometry.setAttribute('uv', data.uv)
  geometry.boundingBox = data.boundingBox.clone()
  geometry.boundingSphere = data.boundingSphere.clone()
  const frame = Math.min(Math.max(options.frame ?? 0, 0), model.frames.length - 1)
  writeMD2Frame(geometry, model, frame, frame, 0)
  return geometry
}

/**
 * Writes the blend of frames `from` → `to` at `t` into a geometry made by `createMD2Geometry`
 * and flags the attributes for upload. Allocates nothing.
 */
export function writeMD2Frame(geometry: BufferGeometry, model: MD2Model, from: number, to: number, t: number): void {
  const { layout } = getMD2RenderData(model)
  const position = geometry.getAttribute('position') as BufferAttribute
  const normal = geometry.getAttribute('normal') as BufferAttribute | undefined
  const a = model.frames[from] ?? model.frames[0]!
  const b = model.frames[to] ?? model.frames[0]!
  blendVerticesYUp(a, b, t, layout.xyzIndex, position.array as Float32Array, normal?.array as Float32Array | undefined)
  position.needsUpdate = true
  if (normal) normal.needsUpdate = true
}

import { Matrix4, WebGPUCoordinateSystem, type Camera, type Mesh } from 'three'

/** Floats in a frustum's planes: six (right, left, bottom, top, far, near), each a unit normal (xyz) and its constant. */
export const FRUSTUM_FLOATS = 24

const viewProjection = new Matrix4()

/**
 * Writes `camera`'s view frustum into `out`, in the space `world` maps from (the world itself without
 * one): the rows of projection × view × world combined as three's `Frustum` combines them, for depth
 * from −1 to 1 (WebGL), from 0 to 1 (WebGPU) or reversed, without an object per plane.
 */
export function writeFrustumPlanes(out: Float32Array, camera: Camera, world?: Matrix4): Float32Array {
  viewProjection.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
  if (world) viewProjection.multiply(world)
  const m = viewProjection.elements
  const reversed = camera.reversedDepth === true
  const webgpu = camera.coordinateSystem === WebGPUCoordinateSystem
  // Right, left, bottom, top: the fourth row less or plus the first, then the second.
  writePlane(out, 0, m, 1, 0, -1)
  writePlane(out, 1, m, 1, 0, 1)
  writePlane(out, 2, m, 1, 1, 1)
  writePlane(out, 3, m, 1, 1, -1)
  // Far, near. Depth 0 is the third row alone: the far plane when depth is reversed, else WebGPU's near plane.
  writePlane(out, 4, m, reversed ? 0 : 1, 2, reversed ? 1 : -1)
  writePlane(out, 5, m, reversed || !webgpu ? 1 : 0, 2, reversed ? -1 : 1)
  return out
}

/**
 * Plane `plane` of `out`: `fourth` times the matrix's fourth row plus `sign` times its row `row`,
 * normalized. Only whole numbers are passed: V8 boxes a fractional number passed by value.
 */
function writePlane(out: Float32Array, plane: number, m: ArrayLike<number>, fourth: number, row: number, sign: number): void {
  const x = fourth * m[3]! + sign * m[row]!
  const y = fourth * m[7]! + sign * m[row + 4]!
  const z = fourth * m[11]! + sign * m[row + 8]!
  const w = fourth * m[15]! + sign * m[row + 12]!
  const length = Math.sqrt(x * x + y * y + z * z)
  out[plane * 4] = x / length
  out[plane * 4 + 1] = y / length
  out[plane * 4 + 2] = z / length
  out[plane * 4 + 3] = w / length
}

/**
 * Whether a sphere (`sphere[0 … 2]` its centre, `sphere[3]` its radius) is at least partly inside `planes`
 * (`writeFrustumPlanes`'s). In an array, not as numbers: V8 boxes a fractional number passed by value.
 */
export function sphereInFrustum(planes: Float32Array, sphere: Float64Array): boolean {
  const x = sphere[0]!
  const y = sphere[1]!
  const z = sphere[2]!
  const r = -sphere[3]!
  for (let p = 0; p < FRUSTUM_FLOATS; p += 4) {
    if (planes[p]! * x + planes[p + 1]! * y + planes[p + 2]! * z + planes[p + 3]! < r) return false
  }
  return true
}

/**
 * Writes into `sphere[0 … 2]` the point `centre` placed by the matrix at `m[at … at + 15]` (column-major, as
 * three keeps them): a sphere's centre for `sphereInFrustum`. Only objects and indices are passed: V8 boxes a
 * fractional number passed by value.
 */
export function placeSphereCentre(
  sphere: Float64Array,
  m: ArrayLike<number>,
  at: number,
  centre: { readonly x: number; readonly y: number; readonly z: number },
): void {
  const { x, y, z } = centre
  for (let r = at; r < at + 3; r++) sphere[r - at] = m[r]! * x + m[r + 4]! * y + m[r + 8]! * z + m[r + 12]!
}

/**
 * The world's view frustum, shared by every model: rebuilt only when the camera or its matrices change,
 * so N models pay for one frustum per frame, not N. The planes above and plain arithmetic, not three's
 * `Frustum` and `Sphere`: their methods return fractional numbers, which V8 boxes whenever it does not
 * inline them (a choice that varies from run to run), and this runs for every model every frame.
 */
const shared = {
  camera: null as Camera | null,
  /** projectionMatrix then matrixWorldInverse elements the planes were built from. */
  key: new Float64Array(32),
  planes: new Float32Array(FRUSTUM_FLOATS),
  /** The sphere tested: its centre in the world (xyz) and its radius. */
  sphere: new Float64Array(4),
}

function worldPlanes(camera: Camera): Float32Array {
  const projection = camera.projectionMatrix.elements
  const view = camera.matrixWorldInverse.elements
  const key = shared.key
  let same = shared.camera === camera
  for (let i = 0; same && i < 16; i++) same = key[i] === projection[i] && key[16 + i] === view[i]
  if (!same) {
    shared.camera = camera
    key.set(projection)
    key.set(view, 16)
    writeFrustumPlanes(shared.planes, camera)
  }
  return shared.planes
}

/** How much the mesh's bounding sphere grows for last frame's transforms. */
const MARGIN = 1.25

/**
 * Whether the mesh's all-frames sphere (with a margin for last frame's transforms) is in view: the per-frame
 * test every animated model makes before writing its vertices, against one frustum shared by all. The
 * sphere is placed as three's `Sphere.applyMatrix4` places it by an object's (affine) matrix: centre
 * transformed, radius times the largest scale on an axis.
 */
export function inView(mesh: Mesh, camera: Camera): boolean {
  if (!mesh.frustumCulled) return true
  const bounds = mesh.geometry.boundingSphere
  if (!bounds) return true
  const e = mesh.matrixWorld.elements
  const sphere = shared.sphere
  placeSphereCentre(sphere, e, 0, bounds.center)
  let scale = 0
  for (let axis = 0; axis < 12; axis += 4) scale = Math.max(scale, e[axis]! ** 2 + e[axis + 1]! ** 2 + e[axis + 2]! ** 2)
  sphere[3] = bounds.radius * Math.sqrt(scale) * MARGIN
  return sphereInFrustum(worldPlanes(camera), sphere)
}

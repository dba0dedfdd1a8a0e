import type { CrowdParts } from './crowdParts.js'
import { ROW_POSED } from '../../core/animation/CrowdClock.js'
// The row layout's own module, not instanceRows.ts: loaded on demand (`loadPosedRows`), this module importing that
// one made the app's up-front chunks larger by kilobytes (as the queries' chunk found).
import { CLOCK, FADE, INSTANCE_STRIDE, LIGHT, RANGE } from './gpu/rowLayout.js'

/**
 * Writes a crowd's rows as the poses of the instances it draws (listed already: `CrowdInstances.listed`), once
 * a frame, and flags them for upload: per drawn instance its matrix, its pose worked out (`ROW_POSED`), its
 * Quake II shadelight (as a stored row has it), and a copy of both rows in the shell and shadow layers for the
 * instances that wear them.
 * `count` becomes the instances drawn (none where the renderer draws nothing). The path of the crowds the
 * shader cannot pose from stored rows (`MD2CrowdBase.storesRows`): it comes with what needs it (following,
 * the looks, the WebGPU side), so that a plain crowd does not ship it. Loops over typed arrays: nothing is
 * allocated.
 */
export function writePosedRows(crowd: CrowdParts): void {
  const { mesh, instances, looks, renderer, quake2, rows } = crowd
  // Poses worked out here, the instances culled already: the shader culls nothing.
  rows.restore()
  renderer.state.cullBy(undefined)
  const drawn = renderer.drawsNothing ? 0 : instances.drawn
  const t = instances.transforms
  const matrices = mesh.instanceMatrix.array as Float32Array
  const data = crowd.data.array as Float32Array
  const poses = crowd.clock.poses
  const shellData = looks?.shell.data?.array as Float32Array | undefined
  const shellMatrices = looks?.shell.instanceMatrix.array as Float32Array
  const shadowData = looks?.shadow.data?.array as Float32Array | undefined
  const shadowMatrices = looks?.shadow.instanceMatrix.array as Float32Array
  // On WebGLRenderer the poses themselves too, one texel a vertex, read by the decode in place of the keyframes.
  const atlas = renderer.atlas
  atlas?.begin(drawn)
  let shelledRows = 0
  let shadowRows = 0
  for (let k = 0; k < drawn; k++) {
    const i = instances.ids[k]!
    const o = i * 16
    for (let e = 0; e < 16; e++) matrices[k * 16 + e] = t[o + e]!
    const s = crowd.clock.pose(i)
    const a = k * INSTANCE_STRIDE
    writePosedRow(data, a, poses, s)
    atlas?.place(poses, i, data, a)
    if (!looks) continue
    const shadowed = looks.castsShadow(i)
    // Its shadelight, as its stored row has it (the shader works out the light table's row from the matrix).
    if (quake2) looks.writeLight(i, data, a + LIGHT)
    if (shellData && looks.wearsShell(i))
      looks.writeShellColor(i, shellData, copyRow(matrices, data, k, shellMatrices, shellData, shelledRows++) + LIGHT)
    if (shadowed) looks.writeShadow(i, shadowData!, copyRow(matrices, data, k, shadowMatrices, shadowData!, shadowRows++) + LIGHT)
  }
  mesh.count = drawn
  rows.uploadFirstRows(drawn)
  atlas?.commit()
  renderer.state.readFromAtlas(atlas?.holdsAll ? atlas.decode : undefined)
  renderer.computed?.rowsWritten(drawn)
  looks?.shell.commit(shelledRows)
  looks?.shadow.commit(shadowRows)
}

/**
 * Copies drawn row `k` (its matrix and per-frame data) into row `row` of a layer's; returns where that
 * row starts in the layer's data. Loops, not `set` with a `subarray`: a view is an object, and this runs
 * per instance per frame.
 */
function copyRow(
  matrices: Float32Array,
  data: Float32Array,
  k: number,
  toMatrices: Float32Array,
  toData: Float32Array,
  row: number,
): number {
  for (let e = 0; e < 16; e++) toMatrices[row * 16 + e] = matrices[k * 16 + e]!
  const from = k * INSTANCE_STRIDE
  const to = row * INSTANCE_STRIDE
  for (let e = 0; e < INSTANCE_STRIDE; e++) toData[to + e] = data[from + e]!
  return to
}

/** Writes the pose at `poses[s]` (`CROWD_POSE_STRIDE` floats) as a posed row at `data[a]`. */
function writePosedRow(data: Float32Array, a: number, poses: Float64Array, s: number): void {
  data[a + CLOCK] = poses[s]!
  data[a + CLOCK + 1] = poses[s + 1]!
  data[a + CLOCK + 2] = poses[s + 2]!
  data[a + CLOCK + 3] = 1
  data[a + RANGE] = 0
  data[a + RANGE + 1] = ROW_POSED
  data[a + RANGE + 2] = 0
  data[a + RANGE + 3] = poses[s + 3]!
  data[a + FADE] = poses[s + 4]!
  data[a + FADE + 1] = poses[s + 5]!
  data[a + FADE + 2] = poses[s + 6]!
  data[a + FADE + 3] = 0
}

/**
 * Quake II vertex normal tables.
 *
 * MD2 vertices store a normal as an index into 162 fixed unit vectors (Quake II `anorms.h`), spread
 * evenly over the sphere. Values as published with the format (also in three.js, MIT).
 */

export const NUM_VERTEX_NORMALS = 162

/** The 21 magnitudes the components take (the normals are a geodesic sphere's vertices: few values recur). */
const MAGNITUDES = [
  0, 0.147621, 0.16246, 0.238856, 0.262866, 0.295242, 0.309017, 0.425325, 0.442863, 0.5, 0.525731, 0.587785, 0.681718, 0.688191, 0.716567,
  0.809017, 0.850651, 0.864188, 0.951056, 0.955423, 1,
]

/**
 * The table's 486 components, one letter each: `a`…`u` is MAGNITUDES[0…20], `A`…`U` its negative
 * (test/core/format/normals.test.ts checks them against anorms.h, value for value).
 */
const COMPONENTS =
  'KaqIdrFatGjpCesaauaqkBombomakqgjpkaqfatidrcesMboPgjLhnQkaRidOmbNlhJpgDriHnlOmBJpGKqaaqKDrI' +
  'atFEsCauaatfEscdriescjpgdrIesCjpGqkaombomBkqahnlridnlhpgjmbolhntfauaasceqKatFarIdsCepGjmBo' +
  'qakriDpgJscEkaQmbOmBOqaKpGJrIDsCEboMgjPhnLidRlhNnlHBoMGjPakQKaQIdRFaTCeSaaUfaTceSIDRGJPCES' +
  'aQKBOMbOMaKQgJPiDRcESdRIjPGhNLoMBnLHlHNaTFaUaeSCaQkaTfdRieScjPgoMbkQaDRIJPGESCQKaOMBOMbKQa' +
  'JPgDRiEScRIdPGjNLhMBoIDrLHnGJpBOmHNlCEsiDrcEsgJpbOmaKqhNllHnnLhTfaSceUaaQakTFaSCeRiDScEPgJ' +
  'RIDSCEPGJMbOMBOQaKNlHLhNHnLHNLLHNNLH'

/** The 162 normals, x, y, z each, in Quake II coordinates (X forward, Y left, Z up). */
export const ANORMS: Float32Array = Float32Array.from(COMPONENTS, (letter) => {
  const code = letter.charCodeAt(0)
  return code >= 97 ? MAGNITUDES[code - 97]! : -MAGNITUDES[code - 65]!
})

/**
 * The normals padded to 256 entries so that any byte indexes it: real files carry indices of 162 and
 * above, which the engine reads past its table. We map them to straight up (0, 0, 1), a neutral,
 * lit-from-above normal, and the parser reports them in `warnings`.
 */
export const ANORMS_256: Float32Array = (() => {
  const table = new Float32Array(256 * 3)
  table.set(ANORMS)
  for (let i = NUM_VERTEX_NORMALS; i < 256; i++) table[i * 3 + 2] = 1
  return table
})()

/**
 * The index of the anorm closest to (x, y, z): the first of the highest dot products, as qdata picks it.
 * The vector need not be normalised.
 */
export function nearestNormalIndex(x: number, y: number, z: number): number {
  let best = 0
  let bestDot = -Infinity
  for (let i = 0; i < NUM_VERTEX_NORMALS; i++) {
    const d = ANORMS[i * 3]! * x + ANORMS[i * 3 + 1]! * y + ANORMS[i * 3 + 2]! * z
    if (d > bestDot) {
      bestDot = d
      best = i
    }
  }
  return best
}

/**
 * Converting a rigged character (issue 41): the Mixamo-style character of stories/support/character.ts
 * (two skinned meshes, a texture, three clips, 27 frames at 10 fps) exported as a .glb by three's
 * GLTFExporter, then loaded with three's GLTFLoader, baked by bakeMD2 and written: about 30,000 vertices
 * with `simplify` (meshoptimizer, to MD2's limits or to 1,000 triangles) beside one that fits without it.
 * Times are medians over the rounds; the simplifier's WebAssembly is loaded once before.
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { writeMD2 } from '../src/core/format/writeMD2'
import { packGLB, readGLB } from '../src/core/gltf/glb'
import { bakeMD2, type BakeMD2Options } from '../src/three/convert/bakeMD2'
import { loadSimplifier } from '../src/three/convert/loadSimplifier'
import { buildCharacter } from '../stories/support/character'
import { exportRig } from '../stories/support/rig'
import { fmt, median, now, type Table } from './lib/stats'

/** The .glb through GLTFLoader in Node, its image left out (Node does not decode it; the CLI does, apart). */
async function load(glb: Uint8Array) {
  const { json, bin } = readGLB(glb)
  delete json.images
  delete json.textures
  for (const material of (json.materials ?? []) as { pbrMetallicRoughness?: { baseColorTexture?: unknown } }[])
    delete material.pbrMetallicRoughness?.baseColorTexture
  return new GLTFLoader().parseAsync(packGLB(json, bin).slice().buffer, '')
}

export async function runConvertBench(options: { rounds: number }): Promise<Table> {
  await loadSimplifier()
  const cases: [string, number, BakeMD2Options][] = [
    ['fits as it is', 0.25, {}],
    ['simplify: true (to MD2’s limits)', 1.07, { simplify: true }],
    ['simplify: 1000', 1.07, { simplify: 1000 }],
  ]
  const rows: (string | number)[][] = []
  for (const [label, detail, bake] of cases) {
    const { scene, clips } = buildCharacter({ detail })
    const glb = await exportRig(scene, clips)
    const loads: number[] = []
    const bakes: number[] = []
    let result: ReturnType<typeof bakeMD2> | undefined
    let inputVertices = 0
    let inputTriangles = 0
    for (let round = 0; round < options.rounds; round++) {
      let start = now()
      const gltf = await load(glb)
      loads.push(now() - start)
      if (round === 0)
        gltf.scene.traverse((object) => {
          const mesh = object as { isMesh?: boolean; geometry?: import('three').BufferGeometry }
          if (!mesh.isMesh) return
          inputVertices += mesh.geometry!.getAttribute('position').count
          inputTriangles += mesh.geometry!.getIndex()!.count / 3
        })
      start = now()
      result = bakeMD2(gltf.scene, gltf.animations, bake)
      writeMD2(result.model)
      bakes.push(now() - start)
    }
    const { numVertices, numTris, numFrames } = result!.model.header
    rows.push([
      label,
      `${inputVertices.toLocaleString('en')} / ${inputTriangles.toLocaleString('en')}`,
      `${numVertices.toLocaleString('en')} / ${numTris.toLocaleString('en')}`,
      String(numFrames),
      fmt(median(loads), 0),
      fmt(median(bakes), 0),
      fmt(median(loads) + median(bakes), 0),
    ])
  }
  return {
    title: 'Convert a rigged character (.glb → .md2)',
    note: `${options.rounds} rounds, medians; GLTFLoader.parse, then bakeMD2 (simplifying when asked) and writeMD2, in ms`,
    head: ['character', 'vertices / triangles in', 'out', 'frames', 'load ms', 'bake + write ms', 'total ms'],
    rows,
  }
}

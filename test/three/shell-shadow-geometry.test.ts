/**
 * Power shells and blob shadows on the CPU path: their kernel is brought by the geometries that need it,
 * so the body's path (createMD2Geometry, writeMD2Pose) does not load it.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { BufferAttribute, BufferGeometry } from 'three'
import { build } from 'vite'
import { describe, expect, it } from 'vitest'
import { createPose } from '../../src/core/animation/pose'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { createMD2Geometry, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { createMD2ShadowGeometry, createMD2ShellGeometry } from '../../src/three/mesh/shellShadowGeometry'
import { readAsset } from '../support/assets'
import { expectMD2Error } from '../support/errors'

const ROOT = resolve(import.meta.dirname, '../..')
const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'), { name: 'ogro' })

/** The source files `file` loads at run time (imports and re-exports, types aside), transitively, relative to the repository. */
function loadedBy(file: string, seen = new Set<string>()): Set<string> {
  seen.add(relative(ROOT, file))
  const source = readFileSync(file, 'utf8')
  for (const [, spec] of source.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s*'(\.[^']+)'/gm)) {
    const next = resolve(dirname(file), spec!.replace(/\.js$/, '.ts'))
    if (!seen.has(relative(ROOT, next))) loadedBy(next, seen)
  }
  return seen
}

/** The top-level functions in a bundle of `file`'s exports, as an app's build makes it (tree-shaken; unminified, so named; three.js left out). */
async function bundledFunctions(file: string): Promise<string[]> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    build: { write: false, minify: false, lib: { entry: join(ROOT, file), formats: ['es'] }, rollupOptions: { external: [/^three/] } },
  })
  const code = [result]
    .flat()
    .flatMap((bundle) => ('output' in bundle ? bundle.output : []))
    .map((chunk) => ('code' in chunk ? chunk.code : ''))
    .join('\n')
  return [...code.matchAll(/^function (\w+)/gm)].map(([, name]) => name!)
}

describe('shells and blob shadows', () => {
  it("the body's path does not load their kernel; their geometries do", async () => {
    const body = loadedBy(join(ROOT, 'src/three/mesh/MD2Geometry.ts'))
    expect(body).toContain('src/core/animation/blendKernels.ts')
    const theirs = ['src/core/animation/blendPoseInto.ts', 'src/three/mesh/shellShadowGeometry.ts']
    expect([...body].filter((file) => theirs.includes(file))).toEqual([])
    expect([...loadedBy(join(ROOT, 'src/three/mesh/shellShadowGeometry.ts'))]).toEqual(expect.arrayContaining(theirs))
    // Their kernels are generated into the body's kernel module: a bundler leaves them out of an app that never calls them.
    const theirKernels = ['blendPairInto', 'blendFourInto']
    const bodyShips = await bundledFunctions('src/three/mesh/MD2Geometry.ts')
    expect(bodyShips).toContain('blendPair')
    expect(bodyShips.filter((name) => theirKernels.includes(name))).toEqual([])
    expect(await bundledFunctions('src/three/mesh/shellShadowGeometry.ts')).toEqual(expect.arrayContaining(theirKernels))
  })

  it('a shell or shadow geometry not made by createMD2ShellGeometry or createMD2ShadowGeometry is refused by name', () => {
    const geometry = createMD2Geometry(ogro)
    const stranger = new BufferGeometry()
    stranger.name = 'hand-made shell'
    stranger.setAttribute('position', new BufferAttribute(new Float32Array(geometry.getAttribute('position').array.length), 3))
    expectMD2Error(() => writeMD2Pose(geometry, createPose(3), { shell: stranger }), 'BAD_ARGUMENT', {
      text: 'hand-made shell was not made by createMD2ShellGeometry',
    })
    const parameters = new Float64Array(4)
    expectMD2Error(() => writeMD2Pose(geometry, createPose(3), { shadow: { geometry: stranger, parameters } }), 'BAD_ARGUMENT')
  })

  it('written with the body in one call: a shell, a shadow, both, on a blend and on a crossfade', () => {
    const geometry = createMD2Geometry(ogro)
    const plain = createMD2Geometry(ogro)
    const shell = createMD2ShellGeometry(ogro)
    const shadow = { geometry: createMD2ShadowGeometry(ogro), parameters: Float64Array.of(0.6, 0.8, 24, 0) }
    const positions = (g: BufferGeometry) => g.getAttribute('position').array as Float32Array
    for (const pose of [
      { ...createPose(40), to: 41, t: 0.3 },
      { from: 40, to: 41, t: 0.3, fadeFrom: 3, fadeTo: 4, fadeT: 0.6, fadeWeight: 0.45 },
    ]) {
      for (const options of [{ shell }, { shadow }, { shell, shadow }]) {
        positions(shell).fill(0)
        positions(shadow.geometry).fill(0)
        const versions = [shell, shadow.geometry].map((g) => (g.getAttribute('position') as BufferAttribute).version)
        writeMD2Pose(geometry, pose, options)
        writeMD2Pose(plain, pose)
        // The same body (a crossfade without them mixes in a held pose: the same to float rounding).
        const drift = positions(geometry).reduce((worst, x, i) => Math.max(worst, Math.abs(x - positions(plain)[i]!)), 0)
        expect(drift).toBeLessThan(pose.fadeWeight > 0 ? 1e-4 : Number.MIN_VALUE)
        expect(positions(shell).some((x) => x !== 0)).toBe('shell' in options)
        expect(positions(shadow.geometry).some((x) => x !== 0)).toBe('shadow' in options)
        expect([shell, shadow.geometry].map((g, i) => (g.getAttribute('position') as BufferAttribute).version > versions[i]!)).toEqual([
          'shell' in options,
          'shadow' in options,
        ])
      }
    }
  })
})

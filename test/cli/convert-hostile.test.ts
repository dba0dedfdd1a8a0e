/**
 * `convert` given hostile or careless input (issue #43, the file side): URIs outside the glTF's folder, a
 * buffer file far longer than declared, devices and FIFOs, an image bomb, every PNG kind, a texture that
 * is not an image, empty clip lists, OUT a folder, side files already there. Every refusal worded and
 * coded, nothing written; the bounded cases run in a process of their own, their memory and time measured.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { AnimationClip, BufferGeometry, Float32BufferAttribute, Group, Mesh, MeshStandardMaterial, QuaternionKeyframeTrack } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodeTGA } from '../../src/core/images/tga'
import { nodeIO } from '../../src/cli/main'
import { buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run, runRecorded } from '../support/cli'
import { runChild } from '../support/cliProcess'
import { rawPNG, withImage, writeGLTF } from '../support/gltfFiles'

let dir: string
let glb: Uint8Array

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-hostile-'))
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A fresh folder under the test's own. */
function folder(name: string): string {
  const path = join(dir, name)
  mkdirSync(path, { recursive: true })
  return path
}

/** Peak memory well under 1 GB: the CLI's baseline (node, tsx, three) is about 100 MB. */
const BOUNDED_MB = 400

describe('a .gltf reads only files at or below its folder', () => {
  it.each([
    ['../secret.bin', 'leads outside'],
    ['../../../../../../../etc/passwd', 'leads outside'],
    ['/etc/passwd', 'is an absolute path'],
    ['file:///etc/passwd', 'is not a relative file name'],
    ['sub/../../secret.bin', 'leads outside'],
    ['%2e%2e/secret.bin', 'leads outside'],
  ])('buffer URI %s: UNSAFE_PATH naming it, exit 1, nothing read or written', async (uri, why) => {
    const root = folder(`uri-${Math.random().toString(36).slice(2)}`)
    const inner = folder(join(root.slice(dir.length + 1), 'model'))
    const { bin } = writeGLTF(glb, inner, 'rig', { bufferUri: uri })
    // The secret is the real buffer: were it read, the conversion would succeed.
    writeFileSync(join(root, 'secret.bin'), bin)
    const out = join(inner, 'rig.md2')
    const result = await run(['convert', join(inner, 'rig.gltf'), out])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`UNSAFE_PATH: uri: URI "${uri}" ${why}`)
    expect(result.stderr).toContain('not read')
    expect(result.stdout).toBe('')
    expect(readdirSync(inner).sort()).toEqual(['rig.bin', 'rig.gltf', 'rig.png'])
  })

  it('an image URI outside is refused too; --resources DIR allows the folder named', async () => {
    const root = folder('resources')
    const inner = folder('resources/model')
    writeGLTF(glb, inner, 'rig', { bufferUri: '../shared/rig.bin', imageUri: '../shared/rig.png' })
    mkdirSync(join(root, 'shared'))
    writeFileSync(join(root, 'shared/rig.bin'), readFileSync(join(inner, 'rig.bin')))
    writeFileSync(join(root, 'shared/rig.png'), readFileSync(join(inner, 'rig.png')))
    const refused = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(refused.stderr).toMatch(/UNSAFE_PATH: uri: URI "\.\.\/shared\/rig\.bin" leads outside/)
    const allowed = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2'), '--resources', root])
    expect(allowed.stderr).toBe('')
    expect(allowed).toMatchObject({ code: 0, stdout: expect.stringMatching(/^wrote .*rig\.md2: .*skin 64×32 written/) })
  })

  it('a link inside the folder leading out of it is refused when opened', async () => {
    const root = folder('linked')
    const inner = folder('linked/model')
    const { bin } = writeGLTF(glb, inner, 'rig', { bufferUri: 'link.bin' })
    writeFileSync(join(root, 'outside.bin'), bin)
    symlinkSync(join(root, 'outside.bin'), join(inner, 'link.bin'))
    const result = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/UNSAFE_PATH: .*link\.bin leads outside .* \(a link\); not read/)
  })
})

describe('reads bounded by what the file declares', () => {
  it('a 1.5 GB file behind a buffer declaring its real length: that length read, in bounded memory and time', async () => {
    const inner = folder('sparse')
    const { bin } = writeGLTF(glb, inner, 'rig')
    // Sparse: 1.5 GB long on disk without taking the space, the real buffer first.
    truncateSync(join(inner, 'rig.bin'), 1.5 * 1024 ** 3)
    expect(bin.length).toBeLessThan(20_000)
    const result = await runChild(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
    console.log(
      `1.5 GB buffer file, ${bin.length} bytes declared: exit ${result.code}, ${result.peakMB?.toFixed(0)} MB, ${result.seconds.toFixed(1)} s`,
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.peakMB).toBeLessThan(BOUNDED_MB)
    expect(parseMD2(new Uint8Array(readFileSync(join(inner, 'rig.md2')))).header.numTris).toBe(156)
  })

  it('a buffer declared longer than its file: TRUNCATED, exit 1', async () => {
    const inner = folder('short')
    const { bin } = writeGLTF(glb, inner, 'rig', { byteLength: 1_000_000 })
    const result = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toContain(`TRUNCATED: gltf: buffer 0: ${bin.length} bytes, 1000000 declared`)
  })

  it('/dev/zero and a FIFO are not regular files: refused at once, no hang', async () => {
    const inner = folder('devices')
    writeGLTF(glb, inner, 'rig', { bufferUri: relative(inner, '/dev/zero') })
    const outside = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
    expect(outside.code).toBe(1)
    expect(outside.stderr).toMatch(/UNSAFE_PATH: uri: URI "[./]*dev\/zero" leads outside/)
    // With --resources / the device is inside the folder allowed: refused as what it is.
    const zero = await runChild(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2'), '--resources', '/'], { timeoutMs: 30_000 })
    expect(zero.timedOut).toBe(false)
    expect(zero.code).toBe(1)
    expect(zero.stderr).toBe(
      `${join(inner, 'rig.gltf')}: buffer 0 "${relative(inner, '/dev/zero')}": /dev/zero: cannot read: not a regular file\n`,
    )
    console.log(`buffer /dev/zero: exit ${zero.code}, ${zero.peakMB?.toFixed(0)} MB, ${zero.seconds.toFixed(1)} s`)
    expect(zero.peakMB).toBeLessThan(BOUNDED_MB)

    writeGLTF(glb, inner, 'fifo', { bufferUri: 'pipe.bin' })
    execFileSync('mkfifo', [join(inner, 'pipe.bin')])
    const fifo = await runChild(['convert', join(inner, 'fifo.gltf'), join(inner, 'fifo.md2')], { timeoutMs: 30_000 })
    expect(fifo.timedOut).toBe(false)
    expect(fifo.code).toBe(1)
    expect(fifo.stderr).toBe(
      `${join(inner, 'fifo.gltf')}: buffer 0 "pipe.bin": ${join(inner, 'pipe.bin')}: cannot read: not a regular file\n`,
    )
    console.log(`buffer a FIFO: exit ${fifo.code}, ${fifo.peakMB?.toFixed(0)} MB, ${fifo.seconds.toFixed(1)} s`)

    writeFileSync(join(inner, 'rig.glb'), glb)
    const skin = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--skin', '/dev/zero'])
    expect(skin).toMatchObject({ code: 1, stderr: '/dev/zero: cannot read: not a regular file\n' })
    expect(existsSync(join(inner, 'rig.md2'))).toBe(false)
  })
})

describe('time and memory grow with what is written', () => {
  it('one triangle among 100,000 unused vertices: 3 vertices sampled and written, in bounded memory and time', async () => {
    const inner = folder('unused')
    const positions = new Float32Array(300_000)
    for (let i = 0; i < positions.length; i++) positions[i] = Math.sin(i) * 50
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new Float32BufferAttribute(positions, 3))
    geometry.setAttribute('uv', new Float32BufferAttribute(new Float32Array(200_000), 2))
    geometry.setIndex([0, 1, 2])
    const mesh = new Mesh(geometry, new MeshStandardMaterial())
    mesh.name = 'sheet'
    const scene = new Group()
    scene.add(mesh)
    const spin = new AnimationClip('spin', 2, [new QuaternionKeyframeTrack('sheet.quaternion', [0, 2], [0, 0, 0, 1, 0, 1, 0, 0])])
    const file = join(inner, 'unused.glb')
    writeFileSync(file, await exportRig(scene, [spin]))
    const result = await runChild(['convert', file, join(inner, 'unused.md2'), '--fps', '20'])
    console.log(
      `1 triangle, 100,000 vertices, 41 frames: exit ${result.code}, ${result.peakMB?.toFixed(0)} MB, ${result.seconds.toFixed(1)} s`,
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/41 frames, 3 vertices, 1 triangles/)
    expect(result.peakMB).toBeLessThan(BOUNDED_MB)
  })
})

/** A grey 1-bit PNG of `size` × `size` (small to write: the bomb is in what it declares). */
function bigPNG(size: number): Uint8Array {
  const row = new Uint8Array(Math.ceil(size / 8))
  return rawPNG({ width: size, height: size, colourType: 0, depth: 1, row: () => row })
}

describe('images within a pixel budget', () => {
  it('a 12000 × 12000 PNG is refused from its header, the budget named, in bounded memory; the model is still written', async () => {
    const inner = folder('bomb')
    const png = bigPNG(12000)
    const file = join(inner, 'bomb.glb')
    writeFileSync(file, withImage(glb, png))
    const result = await runChild(['convert', file, join(inner, 'bomb.md2')])
    console.log(
      `${png.length}-byte PNG of 12000 × 12000: exit ${result.code}, ${result.peakMB?.toFixed(0)} MB, ${result.seconds.toFixed(1)} s`,
    )
    // The texture costs its pixels, not the model: written with the material's colour, the budget named.
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(
      /its base-colour texture is a damaged PNG \(image 0: png header: 12000 × 12000 pixels is more than the limit of 16777216 \(maxPixels; 4096²/,
    )
    expect(result.peakMB).toBeLessThan(BOUNDED_MB)
    expect(readdirSync(inner).sort()).toEqual(['bomb.glb', 'bomb.md2', 'bomb.pcx'])
  })

  it('a 64 × 64 PNG whose data inflates to 200 MB is refused before it is inflated into memory', async () => {
    const inner = folder('deflate-bomb')
    const zeros = new Uint8Array(200_000_000)
    const png = rawPNG({ width: 64, height: 64, colourType: 6, depth: 8, row: (y) => (y === 0 ? zeros : new Uint8Array(256)) })
    const file = join(inner, 'bomb.glb')
    writeFileSync(file, withImage(glb, png))
    const result = await runChild(['convert', file, join(inner, 'bomb.md2')])
    console.log(
      `${png.length}-byte PNG inflating to 200 MB: exit ${result.code}, ${result.peakMB?.toFixed(0)} MB, ${result.seconds.toFixed(1)} s`,
    )
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/png data: the image data inflates past the 16448 bytes 64 × 64 needs \(a deflate bomb\)/)
    expect(result.peakMB).toBeLessThan(BOUNDED_MB)
  })

  it('--skin with a PNG over the budget is refused the same way', async () => {
    const inner = folder('bomb-skin')
    writeFileSync(join(inner, 'rig.glb'), glb)
    writeFileSync(join(inner, 'big.png'), bigPNG(5000))
    const result = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--skin', join(inner, 'big.png')])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/big\.png: BAD_IMAGE: .*5000 × 5000 pixels is more than the limit of 16777216/)
  })
})

describe('every PNG kind fast-png reads becomes the skin', () => {
  const W = 64
  const H = 32
  /** The value at (x, y) of a pattern every kind can hold: 0..3 by quadrant. */
  const quadrant = (x: number, y: number) => (y < H / 2 ? 0 : 2) + (x < W / 2 ? 0 : 1)
  const COLOURS = [
    [200, 40, 30, 255],
    [20, 160, 60, 255],
    [30, 50, 220, 128],
    [240, 230, 20, 0],
  ]
  const GREYS = [0, 85, 170, 255]
  const kinds: [string, Parameters<typeof rawPNG>[0], (x: number, y: number) => number[]][] = [
    [
      'paletted, 2 bits, with tRNS',
      {
        width: W,
        height: H,
        colourType: 3,
        depth: 2,
        palette: new Uint8Array(COLOURS.flatMap((c) => c.slice(0, 3))),
        trns: new Uint8Array(COLOURS.map((c) => c[3]!)),
        row: (y) =>
          Uint8Array.from({ length: W / 4 }, (_, i) => {
            let byte = 0
            for (let k = 0; k < 4; k++) byte |= quadrant(i * 4 + k, y) << (6 - 2 * k)
            return byte
          }),
      },
      (x, y) => COLOURS[quadrant(x, y)]!,
    ],
    [
      'paletted, 8 bits',
      {
        width: W,
        height: H,
        colourType: 3,
        depth: 8,
        palette: new Uint8Array(COLOURS.flatMap((c) => c.slice(0, 3))),
        row: (y) => Uint8Array.from({ length: W }, (_, x) => quadrant(x, y)),
      },
      (x, y) => [...COLOURS[quadrant(x, y)]!.slice(0, 3), 255],
    ],
    [
      'grey, 2 bits',
      {
        width: W,
        height: H,
        colourType: 0,
        depth: 2,
        row: (y) =>
          Uint8Array.from({ length: W / 4 }, (_, i) => {
            let byte = 0
            for (let k = 0; k < 4; k++) byte |= quadrant(i * 4 + k, y) << (6 - 2 * k)
            return byte
          }),
      },
      (x, y) => [GREYS[quadrant(x, y)]!, GREYS[quadrant(x, y)]!, GREYS[quadrant(x, y)]!, 255],
    ],
    [
      'grey and alpha, 8 bits',
      {
        width: W,
        height: H,
        colourType: 4,
        depth: 8,
        row: (y) =>
          Uint8Array.from({ length: W * 2 }, (_, i) => (i % 2 === 0 ? GREYS[quadrant(i >> 1, y)]! : 255 - quadrant(i >> 1, y) * 60)),
      },
      (x, y) => [GREYS[quadrant(x, y)]!, GREYS[quadrant(x, y)]!, GREYS[quadrant(x, y)]!, 255 - quadrant(x, y) * 60],
    ],
    [
      'RGB, 16 bits',
      {
        width: W,
        height: H,
        colourType: 2,
        depth: 16,
        // Big-endian samples: the high byte is the 8-bit value, the low byte noise a decoder must drop.
        row: (y) =>
          Uint8Array.from({ length: W * 6 }, (_, i) => (i % 2 === 0 ? COLOURS[quadrant(Math.floor(i / 6), y)]![(i % 6) >> 1]! : 0x5a)),
      },
      (x, y) => [...COLOURS[quadrant(x, y)]!.slice(0, 3), 255],
    ],
    [
      'RGBA, 8 bits',
      {
        width: W,
        height: H,
        colourType: 6,
        depth: 8,
        row: (y) => Uint8Array.from({ length: W * 4 }, (_, i) => COLOURS[quadrant(i >> 2, y)]![i % 4]!),
      },
      (x, y) => COLOURS[quadrant(x, y)]!,
    ],
  ]

  it.each(kinds)('%s', async (name, png, expected) => {
    const inner = folder(`png-${name.replace(/\W+/g, '-')}`)
    const file = join(inner, 'rig.glb')
    writeFileSync(file, withImage(glb, rawPNG(png)))
    const result = await run(['convert', file, join(inner, 'rig.md2'), '--skin-format', 'tga'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/skin 64×32 written to .*rig\.tga/)
    const skin = decodeTGA(new Uint8Array(readFileSync(join(inner, 'rig.tga'))))
    let wrong = 0
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const got = Array.from(skin.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 4))
        if (got.join() !== expected(x, y).join()) wrong++
      }
    expect(wrong).toBe(0)
  })

  it('a texture that is not an image is named as such; a damaged PNG is said, the model written', async () => {
    const inner = folder('not-image')
    const text = join(inner, 'text.glb')
    writeFileSync(text, withImage(glb, new TextEncoder().encode('this is not a picture at all, only words')))
    const result = await run(['convert', text, join(inner, 'text.md2')])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/its base-colour texture is not an image \(neither PNG nor JPEG\); its colour is baked instead/)
    expect(result.stderr).not.toMatch(/IMAGE\/PNG/)

    const png = rawPNG(kinds[5]![1])
    const damaged = png.slice(0, png.length - 30)
    writeFileSync(join(inner, 'damaged.glb'), withImage(glb, damaged))
    // A damaged texture costs its pixels, not the model.
    const kept = await run(['convert', join(inner, 'damaged.glb'), join(inner, 'damaged.md2')])
    expect(kept.code).toBe(0)
    expect(kept.stderr).toMatch(/its base-colour texture is a damaged PNG \(image 0: png data: .*\); its colour is baked instead/)
    expect(existsSync(join(inner, 'damaged.md2'))).toBe(true)
  })
})

describe('wrong calls and outputs: refused before any work, nothing written', () => {
  it('--clips ",,," names no clip: a usage error', async () => {
    const inner = folder('clips')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const result = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--clips', ',,,'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^react-three-md2: --clips takes clip names separated by commas, got ",,,"/)
    expect(readdirSync(inner)).toEqual(['rig.glb'])
  })

  it('--scale that collapses the model is refused by its range', async () => {
    const inner = folder('scale')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const result = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--scale', '5e-324'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--scale takes a positive number from 1e-6 to 1e6, got "5e-324"/)
  })

  it('OUT a directory: refused before anything, "wrote" never printed', async () => {
    const inner = folder('outdir')
    writeFileSync(join(inner, 'rig.glb'), glb)
    mkdirSync(join(inner, 'rig.md2'))
    const result = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toMatch(/rig\.md2: cannot write: is a directory\n$/)
    expect(readdirSync(inner).sort()).toEqual(['rig.glb', 'rig.md2'])
  })

  it('an existing side file is kept unless --force', async () => {
    const inner = folder('force')
    writeFileSync(join(inner, 'rig.glb'), glb)
    writeFileSync(join(inner, 'rig.pcx'), 'mine')
    const kept = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2')])
    expect(kept).toMatchObject({ code: 1, stdout: '' })
    expect(kept.stderr).toMatch(/rig\.pcx: already there; nothing written \(--force overwrites\)/)
    expect(readFileSync(join(inner, 'rig.pcx'), 'utf8')).toBe('mine')
    expect(existsSync(join(inner, 'rig.md2'))).toBe(false)
    writeFileSync(join(inner, 'rig.anm'), 'mine too')
    const table = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--fps', '20', '--skin-format', 'tga'])
    expect(table.stderr).toMatch(/rig\.anm: already there/)
    const forced = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--force'])
    expect(forced.code).toBe(0)
    expect(readFileSync(join(inner, 'rig.pcx')).subarray(0, 1)[0]).toBe(0x0a)
  })

  it('outputs go to temporary names and are renamed only when all are written', async () => {
    const inner = folder('atomic')
    writeFileSync(join(inner, 'rig.glb'), glb)
    writeFileSync(join(inner, 'rig.md2'), 'the model that was there')
    const renamed: string[] = []
    const rename = (from: string, to: string) => {
      renamed.push(to)
      nodeIO.rename(from, to)
    }
    const argv = ['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2')]
    const refused = await runRecorded(argv, {
      rename,
      // The skin cannot be written (a full disk, say): the model must stay as it was.
      writeFile: (path, data) => {
        if (/\.pcx\.[^/]*partial$/.test(path)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
        nodeIO.writeFile(path, data)
      },
    })
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toMatch(/rig\.pcx: cannot write: ENOSPC: no space left on device/)
    expect(renamed).toEqual([])
    expect(readFileSync(join(inner, 'rig.md2'), 'utf8')).toBe('the model that was there')
    expect(readdirSync(inner).sort()).toEqual(['rig.glb', 'rig.md2'])

    // All written: renamed into place, then "wrote" printed.
    const done = await runRecorded(argv, { rename })
    expect(done.code).toBe(0)
    expect(renamed.map((path) => path.slice(inner.length + 1))).toEqual(['rig.md2', 'rig.pcx'])
    expect(done.stdout).toMatch(/^wrote /)
    expect(readdirSync(inner).sort()).toEqual(['rig.glb', 'rig.md2', 'rig.pcx'])
  })
})

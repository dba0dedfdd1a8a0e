/**
 * `convert` cannot be turned against its user (issue #51): no request from any URI in any input, nothing read
 * outside the folders (a skin name stored in an .md2 included), no input overwritten (`--force` included),
 * no stale side file and no temporary file left, names as the file system holds them, every refusal naming
 * the file at fault, and gltfpack's meshopt-compressed files decoded.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { MeshoptEncoder } from 'meshoptimizer/encoder'
import { AnimationClip, BoxGeometry, Group, Mesh, MeshStandardMaterial, QuaternionKeyframeTrack } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { readGLB, packGLB } from '../../src/core/gltf/glb'
import { nodeIO } from '../../src/cli/main'
import { buildRig, exportRig } from '../../stories/support/rig'
import { readAsset } from '../support/assets'
import { fileHashes, runOnDisk as run, runRecorded } from '../support/cli'
import { writeGLTF } from '../support/gltfFiles'

let dir: string
let glb: Uint8Array
let server: Server
let requests: string[]
let base: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-untrusted-'))
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
  requests = []
  // Serves the rig's own bytes: a fetched URI would make the conversion succeed.
  server = createServer((request, response) => {
    requests.push(request.url ?? '')
    response.end(Buffer.from(readGLB(glb).bin))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
  rmSync(dir, { recursive: true, force: true })
})

let folders = 0
/** A fresh folder under the test's own. */
function folder(name: string): string {
  const path = join(dir, `${name}-${folders++}`)
  mkdirSync(path, { recursive: true })
  return path
}

/** Every file under `root` by its path below it, with its SHA-256. */
function hashes(root: string): Record<string, string> {
  return Object.fromEntries([...fileHashes(root)].map(([path, hash]) => [relative(root, path), hash]))
}

/** The rig as a .glb whose buffer 0 (or first image) is given by `uri` instead of its binary chunk. */
function glbWithURI(what: 'buffer' | 'image', uri: string): Uint8Array {
  const { json, bin } = readGLB(glb)
  if (what === 'buffer') (json.buffers as { uri?: string }[])[0]!.uri = uri
  else {
    const image = (json.images as { uri?: string; bufferView?: number; mimeType?: string }[])[0]!
    delete image.bufferView
    delete image.mimeType
    image.uri = uri
  }
  return packGLB(json, bin)
}

describe('no request, ever, from a URI in a file', () => {
  it.each([
    ['buffer', 'main input'],
    ['buffer', 'animation input'],
    ['image', 'main input'],
    ['image', 'animation input'],
  ] as const)('an http: %s URI in a .glb (%s): refused naming the file and the URI, no request', async (what, role) => {
    const inner = folder(`http-${what}`)
    const uri = `${base}/${what}-${role.replace(' ', '-')}`
    writeFileSync(join(inner, 'rig.glb'), glb)
    writeFileSync(join(inner, 'bad.glb'), glbWithURI(what, uri))
    const before = hashes(inner)
    const inputs = role === 'main input' ? ['bad.glb'] : ['rig.glb', 'rig.glb', 'bad.glb']
    const result = await run(['convert', ...inputs.map((name) => join(inner, name)), join(inner, 'out.md2')])
    expect(requests).toEqual([])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toBe(
      `${join(inner, 'bad.glb')}: UNSAFE_PATH: uri: URI "${uri}" is not a relative file name ` +
        `(only data: URIs and files at or below ${inner}/ are read); not read\n`,
    )
    expect(hashes(inner)).toEqual(before)
  })

  it('https:, file:, absolute, ../ and percent-encoded URIs in a .gltf buffer or image: no request, nothing outside read', async () => {
    for (const uri of [
      `${base}/a.bin`,
      'https://127.0.0.1:1/a.bin',
      `//127.0.0.1:${base.split(':')[2]}/a.bin`,
      '/etc/passwd',
      '..%2fsecret.bin',
      '%2e%2e%5csecret.bin',
    ])
      for (const what of ['bufferUri', 'imageUri'] as const) {
        const root = folder('gltf-uri')
        const inner = join(root, 'model')
        mkdirSync(inner)
        const { bin } = writeGLTF(glb, inner, 'rig', { [what]: uri })
        writeFileSync(join(root, 'secret.bin'), bin)
        const before = hashes(root)
        const result = await runRecorded(['convert', join(inner, 'rig.gltf'), join(inner, 'rig.md2')])
        expect(result.code, `${what} ${uri}: ${result.stderr}`).toBe(1)
        expect(result.stderr).toMatch(new RegExp(`^${join(inner, 'rig.gltf')}: UNSAFE_PATH: uri: URI ".*" .*; not read\n$`))
        expect(result.read.every((path) => path.startsWith(`${inner}/`))).toBe(true)
        expect(hashes(root)).toEqual(before)
      }
    expect(requests).toEqual([])
  })
})

/** Ogro's model with its first skin name replaced (MD2 keeps skin names as 64-byte C strings from `ofs_skins`). */
function ogroNaming(skin: string): Uint8Array {
  const bytes = readAsset('quake2/ogro/tris.MD2').slice()
  const at = new DataView(bytes.buffer).getInt32(44, true)
  bytes.fill(0, at, at + 64)
  bytes.set(new TextEncoder().encode(skin), at)
  return bytes
}

describe('.md2 → .glb: a skin name is looked for inside the model\u2019s folder only', () => {
  it.each(['../outside.pcx', '../../outside/outside.pcx', 'sub/../../outside.pcx'])(
    'skin name %s: not read, a warning, the model written without it',
    async (name) => {
      const root = folder('skin-escape')
      const inner = join(root, 'outside', 'model')
      mkdirSync(inner, { recursive: true })
      writeFileSync(join(inner, 'tris.md2'), ogroNaming(name))
      const pcx = readAsset('quake2/ogro/igdosh.pcx')
      // Where each name leads: were it read, the skin would be embedded.
      writeFileSync(join(root, 'outside.pcx'), pcx)
      writeFileSync(join(root, 'outside', 'outside.pcx'), pcx)
      const before = hashes(root)
      const result = await runRecorded(['convert', join(inner, 'tris.md2'), join(inner, 'tris.glb')])
      expect(result.code).toBe(0)
      // One warning for the name, whatever spellings were tried.
      expect(result.stderr.match(/warning/g)).toHaveLength(1)
      expect(result.stderr).toContain(
        `${join(inner, 'tris.md2')}: warning: skin name "${name}" leads outside ${inner}/ (only files at or below it are read); not read\n`,
      )
      expect(result.stdout).toMatch(/, no skin\n$/)
      expect(result.read).toEqual([join(inner, 'tris.md2')])
      expect(readGLB(readFileSync(join(inner, 'tris.glb'))).json.images).toBeUndefined()
      expect(Object.keys(hashes(root)).sort()).toEqual([...Object.keys(before), 'outside/model/tris.glb'].sort())
    },
  )

  it('a skin inside the folder is still found; one behind a link leading out is not read', async () => {
    const root = folder('skin-link')
    const inner = join(root, 'model')
    mkdirSync(inner)
    writeFileSync(join(inner, 'tris.md2'), ogroNaming('players/ogro/linked.pcx'))
    writeFileSync(join(root, 'secret.pcx'), readAsset('quake2/ogro/igdosh.pcx'))
    symlinkSync(join(root, 'secret.pcx'), join(inner, 'linked.pcx'))
    const linked = await runRecorded(['convert', join(inner, 'tris.md2'), join(inner, 'tris.glb')])
    expect(linked.code).toBe(0)
    expect(linked.stderr).toMatch(/warning: .*linked\.pcx leads outside .* \(a link\); not read\n/)
    expect(linked.stdout).toMatch(/, no skin\n$/)
    rmSync(join(inner, 'linked.pcx'))
    writeFileSync(join(inner, 'linked.pcx'), readAsset('quake2/ogro/igdosh.pcx'))
    const found = await run(['convert', join(inner, 'tris.md2'), join(inner, 'tris.glb'), '--force'])
    expect(found.code).toBe(0)
    expect(found.stderr).not.toMatch(/warning/)
    expect(found.stdout).toMatch(/skin 256×256 from .*model\/linked\.pcx\n$/)
    // A roundabout path that stays inside: found where it leads, though its first folder is not there.
    mkdirSync(join(inner, 'sub'))
    writeFileSync(join(inner, 'sub', 'inner.pcx'), readAsset('quake2/ogro/igdosh.pcx'))
    writeFileSync(join(inner, 'tris.md2'), ogroNaming('nothere/../sub/inner.pcx'))
    const roundabout = await run(['convert', join(inner, 'tris.md2'), join(inner, 'tris.glb'), '--force'])
    expect(roundabout.code).toBe(0)
    expect(roundabout.stderr).not.toMatch(/warning|cannot/)
    expect(roundabout.stdout).toMatch(/skin 256×256 from .*model\/nothere\/\.\.\/sub\/inner\.pcx\n$/)
  })
})

describe('no input overwritten, nothing stale, nothing half-written', () => {
  it.each([
    ['OUT is the .gltf\u2019s buffer', 'out.md2', [], 'out.md2'],
    ['OUT is the .gltf\u2019s buffer, --force', 'out.md2', ['--force'], 'out.md2'],
    ['the .anm side file is the buffer, --force', 'out.anm', ['--fps', '20', '--force'], 'out.anm'],
    ['the skin side file is the buffer, --force', 'out.tga', ['--skin-format', 'tga', '--force'], 'out.tga'],
  ])('%s: refused before anything is written, every input as it was', async (_, bufferName, options, clash) => {
    const inner = folder('clash')
    const { bin } = writeGLTF(glb, inner, 'rig', { bufferUri: bufferName })
    writeFileSync(join(inner, bufferName), bin)
    rmSync(join(inner, 'rig.bin'))
    const before = hashes(inner)
    const result = await run(['convert', join(inner, 'rig.gltf'), join(inner, 'out.md2'), ...options])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toBe(
      `${join(inner, clash)}: cannot write: it is an input, which this run reads; nothing written (--force does not overwrite inputs)\n`,
    )
    expect(hashes(inner)).toEqual(before)
  })

  it('OUT a link to the input, or the input by another path: refused, the input as it was', async () => {
    const inner = folder('clash-link')
    writeFileSync(join(inner, 'rig.glb'), glb)
    mkdirSync(join(inner, 'sub'))
    symlinkSync(join(inner, 'rig.glb'), join(inner, 'sub', 'rig.md2'))
    const before = hashes(inner)
    const linked = await run(['convert', join(inner, 'rig.glb'), join(inner, 'sub', 'rig.md2'), '--force'])
    expect(linked).toMatchObject({ code: 1, stdout: '' })
    expect(linked.stderr).toBe(
      `${join(inner, 'sub', 'rig.md2')}: cannot write: it is ${join(inner, 'rig.glb')}, which this run reads; nothing written (--force does not overwrite inputs)\n`,
    )
    // --skin given as the side file the run would write.
    writeFileSync(join(inner, 'skin.png'), readFileSync(join(inner, 'rig.glb')).subarray(0, 0))
    const skin = await run([
      'convert',
      join(inner, 'rig.glb'),
      join(inner, 'skin.md2'),
      '--skin',
      `${inner}/sub/../skin.png`,
      '--skin-format',
      'png',
      '--force',
    ])
    expect(skin).toMatchObject({ code: 1, stdout: '' })
    expect(skin.stderr).toMatch(/skin\.png: cannot write: it is .*sub\/\.\.\/skin\.png, which this run reads/)
    expect(hashes(inner)).toEqual({ ...before, 'skin.png': hashes(inner)['skin.png']! })
  })

  it('a rerun removes the animation table an earlier run wrote for that OUT; a table of the user\u2019s is kept', async () => {
    const inner = folder('stale')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const first = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--fps', '20'])
    expect(first.code).toBe(0)
    expect(readdirSync(inner).sort()).toEqual(['rig.anm', 'rig.glb', 'rig.md2', 'rig.pcx'])
    const second = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--force'])
    expect(second).toMatchObject({ code: 0, stderr: '' })
    expect(readdirSync(inner).sort()).toEqual(['rig.glb', 'rig.md2', 'rig.pcx'])
    writeFileSync(join(inner, 'rig.anm'), 'stand 0 3 5\n')
    const mine = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--force'])
    expect(mine.code).toBe(0)
    expect(readFileSync(join(inner, 'rig.anm'), 'utf8')).toBe('stand 0 3 5\n')
  })

  it('a write that fails part way (a full disk) leaves no temporary file, and the old files as they were', async () => {
    const inner = folder('enospc')
    writeFileSync(join(inner, 'rig.glb'), glb)
    writeFileSync(join(inner, 'rig.md2'), 'the model that was there')
    const before = hashes(inner)
    const result = await runRecorded(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2')], {
      // Half the skin's bytes land, then the disk is full: what a real ENOSPC leaves.
      writeFile: (path, data) => {
        if (/\.pcx\.[^/]*partial$/.test(path)) {
          nodeIO.writeFile(path, data.subarray(0, data.length >> 1))
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
        }
        nodeIO.writeFile(path, data)
      },
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/rig\.pcx: cannot write: ENOSPC/)
    expect(hashes(inner)).toEqual(before)
  })
})

describe('names as the file system holds them', () => {
  it('a non-ASCII OUT name: refused in words before anything is read past the inputs, nothing written', async () => {
    const inner = folder('names')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const result = await run(['convert', join(inner, 'rig.glb'), join(inner, 'modèle.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toBe(
      `${join(inner, 'modèle.md2')}: cannot name the skin "modèle.pcx" in the model: MD2 stores skin names as bytes, one a ` +
        'character, and this name is not ASCII, so the name stored would not be the file\u2019s; nothing written (give OUT an ASCII name)\n',
    )
    expect(readdirSync(inner)).toEqual(['rig.glb'])
  })

  it('an OUT name too long for MD2\u2019s 64-byte skin name: refused naming OUT and the limit, not the input', async () => {
    const inner = folder('long-name')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const out = join(inner, `${'n'.repeat(60)}.md2`)
    const result = await run(['convert', join(inner, 'rig.glb'), out])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toBe(
      `${out}: cannot name the skin "${'n'.repeat(60)}.pcx" in the model: 64 bytes, past MD2's 63; nothing written (give OUT a shorter name)\n`,
    )
    expect(readdirSync(inner)).toEqual(['rig.glb'])
  })
})

describe('every refusal names the file at fault', () => {
  it('a third input whose clip animates bones the first lacks: that input named', async () => {
    const inner = folder('third')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const { json, bin } = readGLB(glb)
    for (const node of json.nodes as { name?: string }[]) if (node.name) node.name = `other_${node.name}`
    writeFileSync(join(inner, 'other.glb'), packGLB(json, bin))
    const result = await run(['convert', ...['rig.glb', 'rig.glb', 'other.glb'].map((name) => join(inner, name)), join(inner, 'out.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toMatch(
      new RegExp(`^${join(inner, 'other.glb')}: BAD_ARGUMENT: clips: clip "\\w+" animates \\d+ nodes? the scene does not have: "other_`),
    )
  })

  it('gltfpack\u2019s EXT_meshopt_compression: decoded with meshoptimizer, the same model as from the plain file', async () => {
    const inner = folder('meshopt')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const packed = await meshoptCompressed(glb)
    // Same names in two folders: the model stores its skin's name.
    mkdirSync(join(inner, 'packed'))
    writeFileSync(join(inner, 'packed', 'rig.glb'), packed.file)
    expect(packed.compressed).toBeGreaterThan(5)
    const plain = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2')])
    const decoded = await run(['convert', join(inner, 'packed', 'rig.glb'), join(inner, 'packed', 'rig.md2')])
    expect(decoded.stderr).toBe('')
    expect(decoded.code).toBe(0)
    expect(plain.code).toBe(0)
    expect(readFileSync(join(inner, 'packed', 'rig.md2'))).toEqual(readFileSync(join(inner, 'rig.md2')))
    expect(readFileSync(join(inner, 'packed', 'rig.pcx'))).toEqual(readFileSync(join(inner, 'rig.pcx')))

    // Its compressed bytes damaged: refused naming the file and the view, never a deep error.
    const { json, bin } = readGLB(packed.file)
    const view = (
      json.bufferViews as { extensions?: { EXT_meshopt_compression?: { byteOffset: number; byteLength: number } } }[]
    ).findIndex((v) => v.extensions?.EXT_meshopt_compression)
    const ext = (json.bufferViews as { extensions: { EXT_meshopt_compression: { byteOffset: number; byteLength: number } } }[])[view]!
      .extensions.EXT_meshopt_compression
    const broken = bin.slice()
    broken.fill(0xff, ext.byteOffset, ext.byteOffset + ext.byteLength)
    writeFileSync(join(inner, 'broken.glb'), packGLB(json, broken))
    const refused = await run(['convert', join(inner, 'rig.glb'), join(inner, 'broken.glb'), join(inner, 'broken.md2')])
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(refused.stderr).toMatch(
      new RegExp(
        `^${join(inner, 'broken.glb')}: OUT_OF_RANGE: gltf: bufferViews\\[${view}\\]\\.extensions\\.EXT_meshopt_compression does not decode`,
      ),
    )
    expect(existsSync(join(inner, 'broken.md2'))).toBe(false)
  })
  it('gltfpack\u2019s KHR_mesh_quantization (positions as normalized shorts, the scale on the node): read as three reads it', async () => {
    const inner = folder('quantized')
    const geometry = new BoxGeometry(40, 60, 20, 2, 3, 1)
    const mesh = new Mesh(geometry, new MeshStandardMaterial())
    mesh.name = 'box'
    const scene = new Group()
    scene.add(mesh)
    const turn = new AnimationClip('turn', 1, [
      new QuaternionKeyframeTrack('box.quaternion', [0, 1], [0, 0, 0, 1, 0, 0.7071068, 0, 0.7071068]),
    ])
    const plain = await exportRig(scene, [turn])
    const { json, bin } = readGLB(plain)
    type Accessor = {
      bufferView: number
      byteOffset?: number
      componentType: number
      count: number
      normalized?: boolean
      min?: number[]
      max?: number[]
    }
    const accessors = json.accessors as Accessor[]
    const views = json.bufferViews as { byteOffset?: number; byteLength: number }[]
    const position =
      accessors[(json.meshes as { primitives: { attributes: { POSITION: number } }[] }[])[0]!.primitives[0]!.attributes.POSITION]!
    const floats = new Float32Array(bin.buffer.slice(bin.byteOffset + (views[position.bufferView]!.byteOffset ?? 0)), 0, position.count * 3)
    const range = Math.max(...floats.map(Math.abs))
    // Shorts padded to 8 bytes a vertex, as KHR_mesh_quantization requires of 6-byte elements.
    const shorts = new Int16Array(position.count * 4)
    for (let i = 0; i < position.count; i++)
      for (let c = 0; c < 3; c++) shorts[i * 4 + c] = Math.round((floats[i * 3 + c]! / range) * 32767)
    const offset = Math.ceil(bin.length / 4) * 4
    const joined = new Uint8Array(offset + shorts.byteLength)
    joined.set(bin)
    joined.set(new Uint8Array(shorts.buffer), offset)
    views.push({ byteOffset: offset, byteLength: shorts.byteLength, byteStride: 8, buffer: 0 } as never)
    Object.assign(position, { bufferView: views.length - 1, byteOffset: 0, componentType: 5122, normalized: true })
    position.min = position.min!.map((v) => Math.round((v / range) * 32767))
    position.max = position.max!.map((v) => Math.round((v / range) * 32767))
    const node = (json.nodes as { mesh?: number; scale?: number[] }[]).find((n) => n.mesh !== undefined)!
    node.scale = [range, range, range]
    ;(json.buffers as { byteLength: number }[])[0]!.byteLength = joined.length
    json.extensionsUsed = ['KHR_mesh_quantization']
    json.extensionsRequired = ['KHR_mesh_quantization']
    writeFileSync(join(inner, 'plain.glb'), plain)
    writeFileSync(join(inner, 'quantized.glb'), packGLB(json, joined))
    const fromPlain = await run(['convert', join(inner, 'plain.glb'), join(inner, 'plain.md2')])
    const fromQuantized = await run(['convert', join(inner, 'quantized.glb'), join(inner, 'quantized.md2')])
    expect(fromQuantized.stderr).toBe('')
    expect(fromQuantized.code).toBe(0)
    expect(fromPlain.code).toBe(0)
    const a = parseMD2(new Uint8Array(readFileSync(join(inner, 'plain.md2'))))
    const b = parseMD2(new Uint8Array(readFileSync(join(inner, 'quantized.md2'))))
    expect(b.header.numFrames).toBe(a.header.numFrames)
    expect(b.header.numVertices).toBe(a.header.numVertices)
    // One short step (60 / 32767) is far below MD2's own step (60 / 255): the same frames to within one MD2 step.
    let worst = 0
    for (let f = 0; f < a.header.numFrames; f++) {
      const pa = decodeFrame(a, f)
      const pb = decodeFrame(b, f)
      for (let i = 0; i < pa.length; i++) worst = Math.max(worst, Math.abs(pa[i]! - pb[i]!))
    }
    expect(worst).toBeLessThan((60 / 255) * 1.01)
  })
})

/**
 * The .glb as gltfpack writes it with `-c`: every view an accessor reads whole encoded with meshoptimizer's
 * encoder (vertex data as ATTRIBUTES, triangle indices as INDICES, which keeps their order: TRIANGLES may turn a triangle) into buffer 0, the plain bytes left to
 * a fallback buffer that holds nothing, `EXT_meshopt_compression` required.
 */
async function meshoptCompressed(source: Uint8Array): Promise<{ file: Uint8Array; compressed: number }> {
  await MeshoptEncoder.ready
  const { json, bin } = readGLB(source)
  type View = { buffer: number; byteOffset?: number; byteLength: number; byteStride?: number; target?: number; extensions?: object }
  type Accessor = { bufferView?: number; byteOffset?: number; componentType: number; type: string; count: number; sparse?: unknown }
  const views = json.bufferViews as View[]
  const accessors = json.accessors as Accessor[]
  const indices = new Set<number>()
  for (const mesh of json.meshes as { primitives: { indices?: number; mode?: number }[] }[])
    for (const primitive of mesh.primitives)
      if (primitive.indices !== undefined && (primitive.mode ?? 4) === 4) indices.add(primitive.indices)
  const sizes: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }
  const bytes: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }
  const parts: Uint8Array[] = []
  let length = 0
  const append = (data: Uint8Array) => {
    const at = length
    parts.push(data, new Uint8Array((4 - (data.length % 4)) % 4))
    length += Math.ceil(data.length / 4) * 4
    return at
  }
  let compressed = 0
  views.forEach((view, v) => {
    const users = accessors.map((accessor, a) => ({ accessor, a })).filter(({ accessor }) => accessor.bufferView === v)
    const data = bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength)
    const one = users.length === 1 && !users[0]!.accessor.byteOffset ? users[0]! : undefined
    const size = one ? sizes[one.accessor.type]! * bytes[one.accessor.componentType]! : 0
    const mode = one && indices.has(one.a) && size >= 2 ? 'INDICES' : one && size % 4 === 0 && !view.byteStride ? 'ATTRIBUTES' : undefined
    if (!one || !mode || one.accessor.count * size !== view.byteLength || (mode === 'INDICES' && one.accessor.count % 3 !== 0)) {
      view.byteOffset = append(data.slice())
      view.buffer = 0
      return
    }
    const encoded = MeshoptEncoder.encodeGltfBuffer(data, one.accessor.count, size, mode)
    const fallbackOffset = view.byteOffset ?? 0
    view.extensions = {
      EXT_meshopt_compression: {
        buffer: 0,
        byteOffset: append(encoded),
        byteLength: encoded.length,
        byteStride: size,
        count: one.accessor.count,
        mode,
      },
    }
    view.buffer = 1
    view.byteOffset = fallbackOffset
    compressed++
  })
  const packed = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    packed.set(part, at)
    at += part.length
  }
  json.buffers = [{ byteLength: packed.length }, { byteLength: bin.length, extensions: { EXT_meshopt_compression: { fallback: true } } }]
  json.extensionsUsed = [...((json.extensionsUsed as string[] | undefined) ?? []), 'EXT_meshopt_compression']
  json.extensionsRequired = ['EXT_meshopt_compression']
  return { file: packGLB(json, packed), compressed }
}

describe('option values', () => {
  it('--simplify abc is a wrong count, not OUT; --resources on a missing folder is missing', async () => {
    const inner = folder('options')
    writeFileSync(join(inner, 'rig.glb'), glb)
    const simplify = await run(['convert', join(inner, 'rig.glb'), join(inner, 'rig.md2'), '--simplify', 'abc'])
    expect(simplify.code).toBe(2)
    expect(simplify.stderr).toMatch(/^react-three-md2: --simplify takes a triangle count from 1 to 4096, got "abc"\n/)
    const bare = await run(['convert', join(inner, 'rig.glb'), '--simplify', join(inner, 'rig.md2')])
    expect(bare).toMatchObject({ code: 0, stderr: '' })
    const missing = join(inner, 'no-such-folder')
    const resources = await run(['convert', join(inner, 'rig.glb'), join(inner, 'other.md2'), '--resources', missing])
    expect(resources.code).toBe(2)
    expect(resources.stderr).toMatch(new RegExp(`^react-three-md2: --resources ${missing}: no such folder\n`))
    expect(resources.stderr).not.toMatch(/leads outside/)
  })
})

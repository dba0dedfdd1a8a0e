/**
 * `react-three-md2 convert rig.glb rig.md2` on a rig built with three.js and exported by GLTFExporter:
 * skinned, a rigid part on a bone, an armature scaled 0.01, three clips, a PNG base-colour texture.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decode as decodePng } from 'fast-png'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAnimationTable } from '../../src/core/format/animationTable'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { readGLB, packGLB } from '../../src/core/gltf/glb'
import { decodePCX, decodePCXIndexed } from '../../src/core/images/pcx'
import { QUAKE2_PALETTE } from '../../src/core/images/quake2Palette'
import { decodeTGA } from '../../src/core/images/tga'
import { runOnDisk as run } from '../support/cli'
import { RIG_COLOURS, RIG_TEXTURE, buildRig, exportRig, rigTexturePixels } from '../../stories/support/rig'
import { drawnFrame, halfStep, loadGLB, threePose, worstNearest } from '../support/skinnedReference'

let dir: string
let rig: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-bake-'))
  rig = join(dir, 'rig.glb')
  const { scene, clips } = buildRig()
  writeFileSync(rig, await exportRig(scene, clips))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('convert a skinned .glb → .md2', () => {
  it('bakes every clip at --fps, every frame on three’s pose, and writes the skin as a Quake II PCX', async () => {
    const out = join(dir, 'rig.md2')
    const result = await run(['convert', rig, out, '--fps', '20', '--scale', '32'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      /wrote .*rig\.md2: \d+ bytes, 42 frames, \d+ vertices, 156 triangles, 3 animations \(Walk 21, Wave 13, Idle_Breath 8\) at 20 fps, animation table in .*rig\.anm, skin 64×32 written to .*rig\.pcx \(Quake II's palette\)/,
    )
    const model = parseMD2(new Uint8Array(readFileSync(out)), { name: 'rig.md2' })
    expect(model.warnings).toEqual([])
    expect(model.skins).toEqual(['rig.pcx'])
    expect([model.header.skinWidth, model.header.skinHeight]).toEqual([RIG_TEXTURE.width, RIG_TEXTURE.height])
    expect(model.animations.map(({ name, start, end }) => [name, start, end])).toEqual([
      ['Walk', 0, 20],
      ['Wave', 21, 33],
      ['Idle_Breath', 34, 41],
    ])

    // MD2 keeps no rate: the animation table beside it does, as parseAnimationTable reads it.
    const table = parseAnimationTable(readFileSync(join(dir, 'rig.anm'), 'utf8'))
    expect(table.map(({ name, start, end, fps }) => [name, start, end, fps])).toEqual([
      ['Walk', 0, 20, 20],
      ['Wave', 21, 33, 20],
      ['Idle_Breath', 34, 41, 20],
    ])
    const reference = await loadGLB(new Uint8Array(readFileSync(rig)))
    for (const animation of model.animations) {
      const clip = reference.animations.find((c) => c.name.replace(' ', '_') === animation.name)!
      for (let f = animation.start; f <= animation.end; f++) {
        const want = threePose(reference.scene, clip, (f - animation.start) / 20).map((v) => v * 32)
        expect(worstNearest(drawnFrame(model, f), want, halfStep(model, f)), `${animation.name} ${f}`).toBeLessThanOrEqual(1)
      }
    }

    // The skin: the texture's size, in Quake II's palette (its colours are palette entries, kept exactly).
    const pcx = readFileSync(join(dir, 'rig.pcx'))
    const indexed = decodePCXIndexed(new Uint8Array(pcx))
    expect([indexed.width, indexed.height]).toEqual([RIG_TEXTURE.width, RIG_TEXTURE.height])
    expect(Buffer.compare(Buffer.from(indexed.palette), Buffer.from(QUAKE2_PALETTE))).toBe(0)
    expect(new Set(indexed.indices)).toEqual(new Set(RIG_COLOURS))
    expect(Buffer.compare(Buffer.from(decodePCX(new Uint8Array(pcx)).data), Buffer.from(rigTexturePixels()))).toBe(0)
  })

  it('--clips, --skin-format tga and png', async () => {
    const tga = await run(['convert', rig, join(dir, 'wave.md2'), '--clips', 'Wave', '--skin-format', 'tga'])
    expect(tga.code).toBe(0)
    expect(existsSync(join(dir, 'wave.anm'))).toBe(false)
    expect(tga.stdout).toMatch(/7 frames, .* 1 animation \(Wave 7\) at 10 fps, skin 64×32 written to .*wave\.tga/)
    const image = decodeTGA(new Uint8Array(readFileSync(join(dir, 'wave.tga'))))
    expect(Buffer.compare(Buffer.from(image.data), Buffer.from(rigTexturePixels()))).toBe(0)
    const png = await run(['convert', rig, join(dir, 'walk.md2'), '--clips', 'Walk,Wave', '--skin-format', 'png'])
    expect(png.stdout).toMatch(/\(Walk 11, Wave 7\)/)
    const decoded = decodePng(new Uint8Array(readFileSync(join(dir, 'walk.png'))))
    expect([decoded.width, decoded.height]).toEqual([64, 32])
  })

  it('--mesh bakes the named meshes only; a .gltf with its texture in a file next to it', async () => {
    const club = await run(['convert', rig, join(dir, 'club.md2'), '--mesh', 'club'])
    expect(club.code).toBe(0)
    expect(club.stdout).toMatch(/, 8 vertices, 12 triangles, 3 animations/)

    const { json, bin } = readGLB(new Uint8Array(readFileSync(rig)))
    const image = (json.images as { bufferView?: number; uri?: string; mimeType?: string }[])[0]!
    const view = (json.bufferViews as { byteOffset: number; byteLength: number }[])[image.bufferView!]!
    writeFileSync(join(dir, 'rig skin.png'), bin.subarray(view.byteOffset, view.byteOffset + view.byteLength))
    delete image.bufferView
    delete image.mimeType
    image.uri = 'rig%20skin.png'
    ;(json.buffers as { uri?: string }[])[0]!.uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`
    writeFileSync(join(dir, 'split.gltf'), JSON.stringify(json))
    const split = await run(['convert', join(dir, 'split.gltf'), join(dir, 'split.md2')])
    expect(split.code).toBe(0)
    expect(split.stdout).toMatch(/skin 64×32 written to .*split\.pcx/)
    expect(
      Buffer.compare(Buffer.from(decodePCX(new Uint8Array(readFileSync(join(dir, 'split.pcx')))).data), Buffer.from(rigTexturePixels())),
    ).toBe(0)
  })

  it('refuses over-limit input with the limit named, bad options with the usage', async () => {
    const many = await run(['convert', rig, join(dir, 'many.md2'), '--fps', '300'])
    expect(many.code).toBe(1)
    expect(many.stderr).toMatch(/rig\.glb: UNWRITABLE: frames: 588 frames, 76 past MD2's 512 .*261 fps fits/)
    const { scene, clips } = buildRig({ segments: [64, 40] })
    const dense = join(dir, 'dense.glb')
    writeFileSync(dense, await exportRig(scene, clips))
    const refused = await run(['convert', dense, join(dir, 'dense.md2')])
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/UNWRITABLE: triangles[^:]*: 5260 triangles, 1164 past MD2's 4096/),
    })
    const bad = await run(['convert', rig, join(dir, 'x.md2'), '--skin-format', 'bmp'])
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--skin-format takes pcx, tga or png, got "bmp"/) })
    const fps = await run(['convert', rig, join(dir, 'x.md2'), '--fps', 'ten'])
    expect(fps).toMatchObject({ code: 2, stderr: expect.stringMatching(/--fps takes a rate/) })
    const clip = await run(['convert', rig, join(dir, 'x.md2'), '--clips', 'Jump'])
    expect(clip).toMatchObject({ code: 1, stderr: expect.stringMatching(/BAD_ARGUMENT: options: no clip is named "Jump"/) })
  })

  it("a texture Node cannot decode (WebP) is said, and the material's colour baked instead", async () => {
    const { json, bin } = readGLB(new Uint8Array(readFileSync(rig)))
    ;(json.images as { mimeType: string }[])[0]!.mimeType = 'image/webp'
    const view = (json.bufferViews as { byteOffset: number }[])[(json.images as { bufferView: number }[])[0]!.bufferView]!
    const patched = bin.slice()
    patched.set([...new TextEncoder().encode('RIFF'), 0, 0, 0, 0, ...new TextEncoder().encode('WEBP')], view.byteOffset)
    const webp = join(dir, 'webp.glb')
    writeFileSync(webp, packGLB(json, patched))
    const result = await run(['convert', webp, join(dir, 'webp.md2')])
    expect(result.code).toBe(0)
    expect(parseMD2(new Uint8Array(readFileSync(join(dir, 'webp.md2')))).skins).toEqual(['webp.pcx'])
    expect(result.stderr).toMatch(/material "skin": its base-colour texture is (WEBP, which convert cannot decode in Node|not an image)/)
  })

  it('the help lists the new options', async () => {
    const help = await run(['convert', '--help'])
    for (const option of ['--fps N', '--clips A,B', '--mesh NAME', '--scale S', '--skin-format FORMAT'])
      expect(help.stdout).toContain(option)
  })
})
